import { spawn } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { existsSync } from 'node:fs';
import { isIP, Socket } from 'node:net';
import snmp from 'net-snmp';
import { probeStream } from '../../platform/ffmpeg/index.ts';
import type { NetworkMatcher } from '../../platform/outbound-networks.ts';
import { addressAllowed } from '../video/network.ts';
import type { VideoSettings } from '../video/settings.ts';
import { classifyStreamFailure, STREAM_FAILURES, type StreamFailure } from '../video/stream-failure.ts';

export type Networks = VideoSettings['VIDEO_STREAM_NETWORKS'];

/** A probe writes lines as they come and ends with whether it succeeded; `signal` stops it. */
export type Emit = (line: string) => void;

/**
 * Resolves a device's declared host and checks every address with the camera URLs' rules (loopback, link-local,
 * metadata, this machine's own addresses and embedded IPv4 forms are refused), then with the networks the tenant's
 * devices may be in. The probe connects to the checked
 * address, never to the name again (no DNS rebinding between check and connect).
 */
export async function checkHost(
  host: string,
  networks: Networks,
  tenant: NetworkMatcher,
): Promise<{ ok: true; address: string } | { ok: false; reason: 'refused' | 'unresolved' | 'outside' }> {
  const bare = host.trim().replace(/^\[|\]$/g, '');
  if (!bare || bare.length > 253 || !/^[A-Za-z0-9.:_-]+$/.test(bare)) return { ok: false, reason: 'refused' };
  let addresses: string[];
  try {
    addresses = isIP(bare) ? [bare] : (await lookup(bare, { all: true })).map((a) => a.address);
  } catch {
    return { ok: false, reason: 'unresolved' };
  }
  if (addresses.length === 0) return { ok: false, reason: 'unresolved' };
  if (addresses.some((a) => !addressAllowed(a, networks))) return { ok: false, reason: 'refused' };
  if (addresses.some((a) => !tenant.allows(a))) return { ok: false, reason: 'outside' };
  return { ok: true, address: addresses[0] as string };
}

const PING_PATHS = ['/usr/bin/ping', '/bin/ping', '/usr/sbin/ping'];
/** The system ping, if installed (iputils-ping); otherwise `ping` falls back to a TCP connect probe. */
export const pingBinary = (): string | null => PING_PATHS.find((p) => existsSync(p)) ?? null;

/** ICMP echo through the system ping (an argument array, numeric output, 4 probes). */
export function ping(address: string, emit: Emit, signal: AbortSignal): Promise<boolean> {
  const binary = pingBinary();
  if (!binary) {
    emit('ping is not installed on the server: probing TCP port 80 instead');
    return tcpProbe(address, 80, emit, signal);
  }
  return new Promise((resolve) => {
    const args = [isIP(address) === 6 ? '-6' : '-4', '-n', '-c', '4', '-W', '2', address];
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], signal });
    let pending = '';
    const onData = (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) emit(line.trimEnd());
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', () => resolve(false));
    child.on('close', (code) => {
      if (pending.trim()) emit(pending.trimEnd());
      resolve(code === 0);
    });
  });
}

function connectOnce(
  address: string,
  port: number,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<{ ok: boolean; ms: number; error?: string }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = new Socket();
    let settled = false;
    const done = (ok: boolean, error?: string) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve({ ok, ms: performance.now() - started, error });
    };
    const onAbort = () => done(false, 'stopped');
    signal.addEventListener('abort', onAbort);
    socket.setTimeout(timeoutMs, () => done(false, 'timed out'));
    socket.once('connect', () => done(true));
    socket.once('error', (e: NodeJS.ErrnoException) =>
      done(false, e.code === 'ECONNREFUSED' ? 'refused' : e.code === 'EHOSTUNREACH' || e.code === 'ENETUNREACH' ? 'unreachable' : 'failed'),
    );
    socket.connect({ host: address, port });
  });
}

/** Four TCP connects to the port, one a second, with their round-trip times. */
export async function tcpProbe(address: string, port: number, emit: Emit, signal: AbortSignal): Promise<boolean> {
  const target = isIP(address) === 6 ? `[${address}]:${port}` : `${address}:${port}`;
  emit(`TCP connect to ${target}, 4 attempts`);
  let ok = 0;
  for (let i = 1; i <= 4 && !signal.aborted; i++) {
    const r = await connectOnce(address, port, 2000, signal);
    if (r.ok) ok++;
    emit(r.ok ? `attempt ${i}: connected in ${r.ms.toFixed(1)} ms` : `attempt ${i}: ${r.error}`);
    if (i < 4 && !signal.aborted) await new Promise((res) => setTimeout(res, r.ok ? 1000 : 200));
  }
  emit(`${ok} of 4 connected`);
  return ok > 0;
}

const SYSTEM_OIDS = [
  { oid: '1.3.6.1.2.1.1.1.0', name: 'sysDescr' },
  { oid: '1.3.6.1.2.1.1.3.0', name: 'sysUpTime' },
  { oid: '1.3.6.1.2.1.1.5.0', name: 'sysName' },
];

/** SNMP v2c get of the system group (or one OID), 2 s timeout, one retry. */
export function snmpGet(address: string, community: string, oid: string | undefined, emit: Emit, signal: AbortSignal): Promise<boolean> {
  const oids = oid ? [{ oid, name: oid }] : SYSTEM_OIDS;
  emit(`SNMP v2c get ${oids.map((o) => o.name).join(', ')} from ${address}:161`);
  return new Promise((resolve) => {
    const session = snmp.createSession(address, community, { version: snmp.Version2c, timeout: 2000, retries: 1 });
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      try {
        session.close();
      } catch {
        /* already closed */
      }
    };
    session.on('error', () => {
      close();
    });
    const onAbort = () => {
      close();
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    session.get(
      oids.map((o) => o.oid),
      (error: Error | null, varbinds?: snmp.Varbind[]) => {
        signal.removeEventListener('abort', onAbort);
        if (error) {
          emit(`no answer: ${error.name === 'RequestTimedOutError' ? 'request timed out' : 'request failed'}`);
          close();
          resolve(false);
          return;
        }
        let ok = false;
        for (const [i, vb] of (varbinds ?? []).entries()) {
          const name = oids[i]?.name ?? vb.oid;
          if (snmp.isVarbindError(vb)) emit(`${name}: ${snmp.varbindError(vb)}`);
          else {
            ok = true;
            const value = Buffer.isBuffer(vb.value) ? vb.value.toString('utf8') : String(vb.value);
            emit(`${name} = ${value.slice(0, 300)}`);
          }
        }
        close();
        resolve(ok);
      },
    );
  });
}

const CONNECT_FAILURES: Record<string, StreamFailure> = {
  refused: STREAM_FAILURES.refused,
  'timed out': STREAM_FAILURES.timeout,
  unreachable: STREAM_FAILURES.unreachable,
};

/** A stream to probe: the URL ffprobe opens (host pinned to the checked address) and that address and port. */
export interface StreamTarget {
  url: string;
  address: string;
  port: number;
}

/**
 * Probes an RTSP stream: a TCP connect to the checked address, then ffprobe reads a second of it (codec, size,
 * frame rate, time to the first frame). Failures are told by category (`stream-failure.ts`), never by ffprobe's
 * text, which names the URL.
 */
export async function rtspProbe(stream: StreamTarget, emit: Emit, signal: AbortSignal): Promise<boolean> {
  const target = isIP(stream.address) === 6 ? `[${stream.address}]:${stream.port}` : `${stream.address}:${stream.port}`;
  const connect = await connectOnce(stream.address, stream.port, 5000, signal);
  if (!connect.ok) {
    emit(`TCP connect to ${target}: ${CONNECT_FAILURES[connect.error ?? ''] ?? STREAM_FAILURES.unreachable}`);
    return false;
  }
  emit(`TCP connect to ${target}: reachable in ${connect.ms.toFixed(1)} ms`);
  emit('Opening the stream (RTSP over TCP)');
  const result = await probeStream(stream.url, { signal, timeoutMs: 8000, seconds: 1 });
  if (signal.aborted) return false;
  const video = result.video;
  if (!video || result.frames === 0) {
    const failure = result.timedOut
      ? STREAM_FAILURES.timeout
      : video && result.code === 0
        ? STREAM_FAILURES.format
        : classifyStreamFailure(result.stderr);
    emit(`Stream failed: ${failure}`);
    return false;
  }
  const size = video.width && video.height ? `${video.width}x${video.height}` : 'size unknown';
  emit('Stream reachable');
  emit(`Codec: ${video.codecName}${video.profile ? ` (${video.profile})` : ''}`);
  emit(`Resolution: ${size}`);
  emit(`Frame rate: ${video.frameRate === null ? 'unknown' : `${video.frameRate} fps`}`);
  emit(`Time to first frame: ${result.firstFrameMs} ms`);
  emit(`${result.frames} frames read in 1 s`);
  return true;
}
