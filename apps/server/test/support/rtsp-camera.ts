import { type ChildProcess, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { readFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { videoTools } from '../../src/platform/ffmpeg/index.ts';

/**
 * An RTSP camera on loopback, made of ffmpeg only: ffmpeg streams the test clip as RTP (with its SDP), and a few
 * lines of RTSP here answer DESCRIBE/SETUP/PLAY and relay the RTP packets interleaved over the TCP connection,
 * which is how the recorder's ffmpeg (-rtsp_transport tcp) pulls a real camera.
 */
export async function startRtspCamera(clip: string, dir: string) {
  const udp = createSocket('udp4');
  await new Promise<void>((r) => udp.bind(0, '127.0.0.1', r));
  const udpPort = udp.address().port;
  const sdpFile = join(dir, 'cam.sdp');
  const source: ChildProcess = spawn(
    videoTools().ffmpeg?.path ?? 'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-re',
      '-stream_loop',
      '-1',
      '-i',
      clip,
      '-c',
      'copy',
      '-an',
      '-f',
      'rtp',
      '-sdp_file',
      sdpFile,
      `rtp://127.0.0.1:${udpPort}`,
    ],
    { stdio: 'ignore' },
  );
  let sdp = '';
  for (let i = 0; i < 50 && !sdp.includes('m=video'); i++) {
    await new Promise((r) => setTimeout(r, 100));
    sdp = await readFile(sdpFile, 'utf8').catch(() => '');
  }
  sdp = `${sdp.replace(/\r?\n/g, '\r\n').trim()}\r\na=control:trackID=0\r\n`;
  const players = new Set<Socket>();
  udp.on('message', (packet) => {
    const frame = Buffer.alloc(4 + packet.length);
    frame[0] = 0x24;
    frame[1] = 0;
    frame.writeUInt16BE(packet.length, 2);
    packet.copy(frame, 4);
    for (const s of players) if (!s.destroyed) s.write(frame);
  });
  const server: Server = createServer((socket) => {
    let buffer = '';
    socket.on('error', () => players.delete(socket));
    socket.on('close', () => players.delete(socket));
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const request = buffer.slice(0, end);
        buffer = buffer.slice(end + 4);
        const [line, ...headers] = request.split('\r\n');
        const [method, url] = (line ?? '').split(' ');
        const cseq =
          headers
            .find((h) => /^cseq:/i.test(h))
            ?.split(':')[1]
            ?.trim() ?? '0';
        const reply = (extra: string[], body = '') =>
          socket.write(
            [`RTSP/1.0 200 OK`, `CSeq: ${cseq}`, ...extra, ...(body ? [`Content-Length: ${Buffer.byteLength(body)}`] : []), '', body].join(
              '\r\n',
            ),
          );
        if (method === 'OPTIONS') reply(['Public: OPTIONS, DESCRIBE, SETUP, PLAY, TEARDOWN']);
        else if (method === 'DESCRIBE') reply([`Content-Base: ${url}/`, 'Content-Type: application/sdp'], sdp);
        else if (method === 'SETUP') reply(['Transport: RTP/AVP/TCP;unicast;interleaved=0-1', 'Session: 4242;timeout=60']);
        else if (method === 'PLAY') {
          reply(['Session: 4242', 'Range: npt=0.000-']);
          players.add(socket);
        } else reply(['Session: 4242']);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `rtsp://viewer:secret@127.0.0.1:${port}/live`,
    async stop() {
      if (!server.listening) return;
      source.kill('SIGKILL');
      for (const s of players) s.destroy();
      await new Promise((r) => server.close(r));
      udp.close();
    },
  };
}
