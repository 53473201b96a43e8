/**
 * The baselines of bench/api, run as a child process: bare Node `http` answering a 200-byte JSON body, and replaying
 * answers the product gave (their status, headers and bytes) under paths the parent registers, so that a read of
 * the product can be set against bare Node sending the very same answer.
 */
import { createServer, type OutgoingHttpHeaders } from 'node:http';

export interface Replay {
  path: string;
  status: number;
  headers: OutgoingHttpHeaders;
  /** The answer's bytes as sent, compressed if they were, in base64. */
  body: string;
}

const body = JSON.stringify({ version: '0.1.0', name: 'Sitewatch', padding: 'x'.repeat(150) }).slice(0, 200);
const port = Number(process.env.PORT ?? 8197);
const replays = new Map<string, { status: number; headers: OutgoingHttpHeaders; body: Buffer }>();
process.on('message', (message: { replay?: Replay }) => {
  const replay = message.replay;
  if (!replay) return;
  replays.set(replay.path, { status: replay.status, headers: replay.headers, body: Buffer.from(replay.body, 'base64') });
  process.send?.({ stored: replay.path });
});
createServer((req, res) => {
  const replay = replays.get(req.url ?? '');
  if (replay) {
    res.writeHead(replay.status, replay.headers);
    res.end(replay.body);
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}).listen(port, '127.0.0.1', () => process.send?.('ready'));
