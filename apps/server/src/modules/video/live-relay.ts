import type { ChildProcess } from 'node:child_process';
import type { FastifyBaseLogger } from 'fastify';
import { missingToolsMessage, PROTOCOLS, rtspInput, spawnFfmpeg, videoTools } from '../../platform/ffmpeg/index.ts';
import type { NetworkMatcher } from '../../platform/outbound-networks.ts';
import { checkStreamUrl } from './network.ts';
import type { VideoSettings } from './settings.ts';
import { classifyStreamFailure, scrubCredentials } from './stream-failure.ts';

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/**
 * The low-latency live path (fMP4 over WebSocket into Media Source Extensions, as Frigate and go2rtc do).
 *
 * One ffmpeg per watched camera, shared by all its viewers, remuxes the camera (`-c copy`, no re-encoding) into
 * fragmented MP4 with ~100 ms fragments on its stdout. The relay splits that stream into top-level boxes, keeps
 * the init segment (ftyp+moov) and the fragments (moof+mdat) since the last keyframe, and sends a new viewer the
 * init segment, that group of pictures, then every new fragment as it comes. The ffmpeg starts with the first
 * viewer and stops a few seconds after the last one leaves.
 */

export interface LiveSource {
  simulated: boolean;
  streamUrl: string | null;
  /** The networks the camera's tenant may dial. */
  networks: NetworkMatcher;
}

export interface LiveViewer {
  /** A binary fragment (init segment or moof+mdat); `at` is when the server got it from ffmpeg (epoch ms). */
  send(data: Buffer, at: number): void;
  /** Bytes queued and not yet written to the viewer's socket (a slow viewer is dropped). */
  backlog(): number;
  close(code: number, reason: string): void;
}

interface Relay {
  key: string;
  child: ChildProcess | null;
  init: Buffer | null;
  gop: Array<{ data: Buffer; at: number }>;
  viewers: Set<LiveViewer>;
  pending: Buffer;
  ftyp: Buffer | null;
  moof: Buffer | null;
  idle: NodeJS.Timeout | null;
  fragments: number;
}

const FRAGMENT_US = 100_000;
const IDLE_STOP_MS = 5000;
/** A viewer more than this many bytes behind is closed (it reconnects at the live edge). */
const MAX_BACKLOG = 8 * 1024 * 1024;
/** A group of pictures never grows past this many fragments (a camera with very long keyframe intervals). */
const MAX_GOP_FRAGMENTS = 200;
export const LIVE_CLOSE = { ended: 4000, slow: 4001, refused: 4003, unavailable: 4004 } as const;

/** Whether a moof's first sample is a sync sample (a keyframe): trun first-sample flags, else tfhd defaults. */
export function moofStartsWithKeyframe(moof: Buffer): boolean {
  const children = (buf: Buffer, start: number, end: number) => {
    const out: Array<{ type: string; start: number; end: number }> = [];
    let at = start;
    while (at + 8 <= end) {
      const size = buf.readUInt32BE(at);
      const type = buf.toString('latin1', at + 4, at + 8);
      if (size < 8 || at + size > end) break;
      out.push({ type, start: at + 8, end: at + size });
      at += size;
    }
    return out;
  };
  const traf = children(moof, 8, moof.length).find((b) => b.type === 'traf');
  if (!traf) return false;
  let defaultFlags: number | null = null;
  for (const box of children(moof, traf.start, traf.end)) {
    const flags = moof.readUInt32BE(box.start) & 0xffffff;
    if (box.type === 'tfhd') {
      let at = box.start + 8; // version/flags, track id
      if (flags & 0x1) at += 8;
      if (flags & 0x2) at += 4;
      if (flags & 0x8) at += 4;
      if (flags & 0x10) at += 4;
      if (flags & 0x20) defaultFlags = moof.readUInt32BE(at);
    } else if (box.type === 'trun') {
      let at = box.start + 8; // version/flags, sample count
      if (flags & 0x1) at += 4;
      let sampleFlags: number | null = null;
      if (flags & 0x4) sampleFlags = moof.readUInt32BE(at);
      else if (flags & 0x400) {
        // per-sample flags: skip the first sample's duration and size
        if (flags & 0x100) at += 4;
        if (flags & 0x200) at += 4;
        sampleFlags = moof.readUInt32BE(at);
      }
      const effective = sampleFlags ?? defaultFlags;
      // is_non_sync_sample is bit 16; without any flags the movie's trex default (non-sync for video) applies
      return effective !== null && (effective & 0x10000) === 0;
    }
  }
  return false;
}

export function createLiveRelay(deps: { settings: VideoSettings; simulatedClip: () => Promise<string>; log: Log }) {
  const relays = new Map<string, Relay>();

  function deliver(relay: Relay, data: Buffer, at: number) {
    for (const viewer of relay.viewers) {
      if (viewer.backlog() > MAX_BACKLOG) {
        relay.viewers.delete(viewer);
        viewer.close(LIVE_CLOSE.slow, 'too far behind the live stream');
        continue;
      }
      viewer.send(data, at);
    }
  }

  function onBox(relay: Relay, type: string, box: Buffer) {
    const at = Date.now();
    if (type === 'ftyp') relay.ftyp = box;
    else if (type === 'moov') {
      relay.init = Buffer.concat([relay.ftyp ?? Buffer.alloc(0), box]);
      deliver(relay, relay.init, at);
    } else if (type === 'moof') relay.moof = box;
    else if (type === 'mdat' && relay.moof) {
      const fragment = Buffer.concat([relay.moof, box]);
      const key = moofStartsWithKeyframe(relay.moof);
      relay.moof = null;
      relay.fragments++;
      if (key || relay.gop.length >= MAX_GOP_FRAGMENTS) relay.gop = [];
      // a viewer joins at a keyframe: fragments before the first keyframe are useless to anyone
      if (key || relay.gop.length > 0) relay.gop.push({ data: fragment, at });
      if (relay.gop.length > 0) deliver(relay, fragment, at);
    }
  }

  function parse(relay: Relay, chunk: Buffer) {
    relay.pending = relay.pending.length ? Buffer.concat([relay.pending, chunk]) : chunk;
    let at = 0;
    const buf = relay.pending;
    while (buf.length - at >= 8) {
      let size = buf.readUInt32BE(at);
      let header = 8;
      if (size === 1) {
        if (buf.length - at < 16) break;
        size = Number(buf.readBigUInt64BE(at + 8));
        header = 16;
      }
      if (size < header) {
        relay.child?.kill('SIGKILL'); // not an MP4 stream: give up on this run
        relay.pending = Buffer.alloc(0);
        return;
      }
      if (buf.length - at < size) break;
      onBox(relay, buf.toString('latin1', at + 4, at + 8), buf.subarray(at, at + size));
      at += size;
    }
    relay.pending = at === buf.length ? Buffer.alloc(0) : Buffer.from(buf.subarray(at));
  }

  function end(relay: Relay, reason: string) {
    if (relays.get(relay.key) === relay) relays.delete(relay.key);
    if (relay.idle) clearTimeout(relay.idle);
    for (const viewer of relay.viewers) viewer.close(LIVE_CLOSE.ended, reason.slice(0, 120));
    relay.viewers.clear();
    if (relay.child && relay.child.exitCode === null) relay.child.kill('SIGTERM');
  }

  async function start(relay: Relay, source: LiveSource) {
    let input: string[];
    try {
      if (!videoTools().ffmpeg) throw new Error(missingToolsMessage(videoTools()) ?? 'ffmpeg not found');
      if (source.simulated) {
        input = ['-re', '-stream_loop', '-1', '-protocol_whitelist', PROTOCOLS.file, '-i', await deps.simulatedClip()];
      } else {
        const checked = await checkStreamUrl(source.streamUrl ?? '', deps.settings.VIDEO_STREAM_NETWORKS, source.networks);
        if (!checked.ok) throw new Error(checked.reason);
        input = ['-fflags', 'nobuffer', ...rtspInput(checked.pinned)];
      }
    } catch (error) {
      end(relay, scrubCredentials((error as Error).message));
      return;
    }
    if (relays.get(relay.key) !== relay) return; // every viewer left while the source was prepared
    const child = spawnFfmpeg([
      ...input,
      '-map',
      '0:v:0',
      '-c',
      'copy',
      '-an',
      '-f',
      'mp4',
      '-movflags',
      'frag_keyframe+empty_moov+default_base_moof',
      '-frag_duration',
      String(FRAGMENT_US),
      '-flush_packets',
      '1',
      'pipe:1',
    ]);
    relay.child = child;
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-1000);
    });
    child.stdout?.on('data', (chunk: Buffer) => parse(relay, chunk));
    child.once('error', (error) => {
      stderr += error.message;
    });
    child.once('close', () => {
      relay.child = null;
      if (relays.get(relay.key) === relay) {
        deps.log.warn(
          { relay: relay.key, reason: classifyStreamFailure(stderr), detail: scrubCredentials(stderr.trim()) },
          'live relay stopped',
        );
        end(relay, classifyStreamFailure(stderr));
      }
    });
  }

  return {
    /** Adds a viewer of a camera, starting its relay if none runs; returns the function that removes the viewer. */
    watch(key: string, source: LiveSource, viewer: LiveViewer): () => void {
      let relay = relays.get(key);
      if (!relay) {
        relay = {
          key,
          child: null,
          init: null,
          gop: [],
          viewers: new Set(),
          pending: Buffer.alloc(0),
          ftyp: null,
          moof: null,
          idle: null,
          fragments: 0,
        };
        relays.set(key, relay);
        void start(relay, source);
      }
      if (relay.idle) {
        clearTimeout(relay.idle);
        relay.idle = null;
      }
      if (relay.init) {
        viewer.send(relay.init, Date.now());
        for (const f of relay.gop) viewer.send(f.data, f.at);
      }
      relay.viewers.add(viewer);
      const current = relay;
      return () => {
        if (!current.viewers.delete(viewer) || current.viewers.size > 0 || relays.get(key) !== current) return;
        current.idle = setTimeout(() => end(current, 'no viewers'), IDLE_STOP_MS);
        current.idle.unref();
      };
    },
    /** Stops a camera's relay (its config changed or was removed); its viewers reconnect. */
    restart(key: string) {
      const relay = relays.get(key);
      if (relay) end(relay, 'camera changed');
    },
    /** How many relays and viewers run (tests and the benchmark). */
    stats: () => [...relays.values()].map((r) => ({ key: r.key, viewers: r.viewers.size, fragments: r.fragments, pid: r.child?.pid })),
    stop() {
      for (const relay of [...relays.values()]) end(relay, 'server shutting down');
    },
  };
}

export type LiveRelay = ReturnType<typeof createLiveRelay>;
