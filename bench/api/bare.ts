/** The baseline of bench/api: bare Node `http` answering a 200-byte JSON body. Run as a child process. */
import { createServer } from 'node:http';

const body = JSON.stringify({ version: '0.1.0', name: 'Sitewatch', padding: 'x'.repeat(150) }).slice(0, 200);
const port = Number(process.env.PORT ?? 8197);
createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}).listen(port, '127.0.0.1', () => process.send?.('ready'));
