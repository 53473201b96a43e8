import { createHash } from 'node:crypto';
import { chmod, rm } from 'node:fs/promises';
import { createConnection, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The embedded database can be open in one process only, so `npm run backup` asks the running server to make the
 * backup, over a Unix socket beside the data folder that only the server's own user may open (mode 0600).
 */
export interface ControlRequest {
  op: 'backup';
  outRoot: string;
  withRecordings: boolean;
}

export type ControlAnswer = { ok: true; result: { path: string; bytes: number; durationMs: number } } | { ok: false; error: string };

const MAX_SOCKET_PATH = 100;

/** The socket's path: in the data folder, or in the temporary folder when that path would be too long for a socket. */
export function controlSocketPath(dataDir: string): string {
  const inData = join(dataDir, 'control.sock');
  if (inData.length <= MAX_SOCKET_PATH) return inData;
  return join(tmpdir(), `sitewatch-${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}.sock`);
}

export async function startControlSocket(dataDir: string, handle: (request: ControlRequest) => Promise<ControlAnswer>): Promise<Server> {
  const path = controlSocketPath(dataDir);
  // Only one process opens the embedded data folder, so a socket left here is a dead server's.
  await rm(path, { force: true });
  const server = createServer((socket) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > 64 * 1024) return void socket.destroy();
      const end = text.indexOf('\n');
      if (end < 0) return;
      let request: ControlRequest;
      try {
        request = JSON.parse(text.slice(0, end)) as ControlRequest;
        if (request.op !== 'backup' || typeof request.outRoot !== 'string') throw new Error('unknown request');
      } catch {
        return void socket.end(`${JSON.stringify({ ok: false, error: 'unknown request' })}\n`);
      }
      void handle({ op: 'backup', outRoot: request.outRoot, withRecordings: request.withRecordings === true }).then(
        (answer) => socket.end(`${JSON.stringify(answer)}\n`),
        (error: Error) => socket.end(`${JSON.stringify({ ok: false, error: error.message })}\n`),
      );
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  await chmod(path, 0o600);
  server.on('close', () => void rm(path, { force: true }));
  return server;
}

/** Sends a request to the running server; null when no server listens for this data folder. */
export function askRunningServer(dataDir: string, request: ControlRequest): Promise<ControlAnswer | null> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(controlSocketPath(dataDir));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('end', () => {
      try {
        resolve(JSON.parse(text) as ControlAnswer);
      } catch {
        reject(new Error('the running server gave no answer'));
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(null);
      else reject(error);
    });
  });
}
