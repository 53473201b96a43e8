import { useEffect, useRef, useState } from 'react';
import { HlsPlayer } from './HlsPlayer.tsx';

/** How far behind the newest frame playback may drift before it jumps to the live edge (seconds). */
const MAX_LAG_S = 0.8;
const EDGE_S = 0.15;
/** Media older than this behind the playhead is removed from the buffer (seconds). */
const KEEP_S = 10;
const RECONNECTS = 3;

/** The MSE codec string of an fMP4 init segment (H.264 avcC; H.265 hvcC), or null when unknown. */
export function codecOf(init: Uint8Array): string | null {
  const find = (name: string) => {
    const [a, b, c, d] = [...name].map((ch) => ch.charCodeAt(0));
    for (let i = 4; i + 4 < init.length; i++) {
      if (init[i] === a && init[i + 1] === b && init[i + 2] === c && init[i + 3] === d) return i + 4;
    }
    return -1;
  };
  const avc = find('avcC');
  if (avc > 0 && avc + 4 <= init.length) {
    const hex = (n: number) => (init[n] ?? 0).toString(16).padStart(2, '0');
    return `avc1.${hex(avc + 1)}${hex(avc + 2)}${hex(avc + 3)}`;
  }
  if (find('hvcC') > 0) return 'hvc1.1.6.L120.90';
  return null;
}

/**
 * What the live tile does after the low-latency stream failed: try it again when the browser can play it (a frame
 * was shown, or the socket dropped: the stream may come back) unless it failed `RECONNECTS` times in a row soon
 * after starting; otherwise play HLS.
 */
export function afterLiveFailure(failure: { played: boolean; dropped: boolean; quickDrops: number }): 'retry' | 'hls' {
  return (failure.played || failure.dropped) && failure.quickDrops < RECONNECTS ? 'retry' : 'hls';
}

/** The viewer's choice on the live page (remembered in this browser): the low-latency path, or HLS only. */
export const PLAYER_STORE = 'camview-live-player';
export const lowLatencyPreferred = () => {
  try {
    return localStorage.getItem(PLAYER_STORE) !== 'hls';
  } catch {
    return true;
  }
};

export const mseSupported = () => typeof window !== 'undefined' && 'MediaSource' in window && 'WebSocket' in window;

/**
 * The low-latency live player: fMP4 fragments over an authenticated WebSocket into Media Source Extensions (as
 * Frigate and go2rtc do). Each message is an 8-byte server timestamp and MP4 bytes (the init segment, then moof+mdat
 * fragments). Playback stays within a second of the newest frame. `onFail` is called when MSE, the codec or the
 * socket is unavailable, or the stream ends; `played` says whether a frame was shown before, `dropped` that the
 * socket closed or did not open (the stream may come back) rather than that this browser cannot play it.
 */
export function MsePlayer({
  wsUrl,
  testId,
  onFail,
}: {
  wsUrl: string;
  testId?: string;
  onFail: (reason: string, played: boolean, dropped: boolean) => void;
}) {
  const ref = useRef<HTMLVideoElement>(null);
  const failRef = useRef(onFail);
  failRef.current = onFail;

  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    if (!mseSupported()) {
      failRef.current('Media Source Extensions are not available', false, false);
      return;
    }
    let disposed = false;
    let played = false;
    const source = new MediaSource();
    const objectUrl = URL.createObjectURL(source);
    video.src = objectUrl;
    let buffer: SourceBuffer | null = null;
    const queue: Array<{ data: ArrayBuffer; at: number }> = [];
    let appendingAt = 0;
    // the server time of the newest appended fragment and the media time where it ends
    let sync: { at: number; end: number } | null = null;
    const fail = (reason: string, dropped = false) => {
      if (disposed) return;
      disposed = true;
      failRef.current(reason, played, dropped);
    };

    const url = new URL(wsUrl, window.location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(url);
    socket.binaryType = 'arraybuffer';

    const pump = () => {
      if (!buffer || buffer.updating || disposed) return;
      const ranges = video.buffered;
      if (ranges.length && video.currentTime - ranges.start(0) > KEEP_S * 2) {
        buffer.remove(0, video.currentTime - KEEP_S);
        return;
      }
      const next = queue.shift();
      if (!next) return;
      appendingAt = next.at;
      try {
        buffer.appendBuffer(next.data);
      } catch (error) {
        fail((error as Error).message);
      }
    };

    const onUpdateEnd = () => {
      const ranges = video.buffered;
      if (ranges.length) {
        const end = ranges.end(ranges.length - 1);
        if (appendingAt) sync = { at: appendingAt, end };
        // stay at the live edge: jump when too far behind (a late join starts at the GOP's keyframe)
        if (end - video.currentTime > MAX_LAG_S) video.currentTime = Math.max(ranges.start(ranges.length - 1), end - EDGE_S);
        if (video.paused) void video.play().catch(() => undefined);
      }
      appendingAt = 0;
      pump();
    };

    const early: Array<{ data: ArrayBuffer; at: number }> = [];
    // Set by the sourceopen handler, not read from readyState: the state is 'open' before the handler has run, and a
    // fragment arriving in between would be taken for the init segment (on a busy machine, "cannot play this codec").
    let opened = false;
    const handle = (data: ArrayBuffer, at: number) => {
      if (!buffer) {
        if (!opened) {
          early.push({ data, at });
          return;
        }
        const codec = codecOf(new Uint8Array(data));
        const mime = `video/mp4; codecs="${codec}"`;
        if (!codec || !MediaSource.isTypeSupported(mime)) {
          fail(`This browser cannot play ${codec ?? 'this codec'} through Media Source Extensions`);
          return;
        }
        buffer = source.addSourceBuffer(mime);
        buffer.mode = 'segments';
        buffer.addEventListener('updateend', onUpdateEnd);
        buffer.addEventListener('error', () => fail('The stream could not be decoded'));
        queue.push({ data, at: 0 });
      } else queue.push({ data, at });
      pump();
    };
    socket.onmessage = (event) => {
      if (disposed || !(event.data instanceof ArrayBuffer) || event.data.byteLength <= 8) return;
      handle(event.data.slice(8), new DataView(event.data).getFloat64(0));
    };
    // messages that arrived before the media source opened are handled once it is open
    source.addEventListener('sourceopen', () => {
      opened = true;
      for (const item of early.splice(0)) if (!disposed) handle(item.data, item.at);
    });
    socket.onclose = (event) => fail(event.reason || `the live stream closed (${event.code})`, true);
    socket.onerror = () => fail('the live stream is unavailable', true);

    const onTime = () => {
      if (video.currentTime > 0) played = true;
      // exposed for the latency benchmark and browser tests: the capture time of the frame on screen
      if (sync) video.dataset.playingDate = String(Math.round(sync.at - (sync.end - video.currentTime) * 1000));
    };
    video.addEventListener('timeupdate', onTime);
    return () => {
      disposed = true;
      video.removeEventListener('timeupdate', onTime);
      socket.onclose = null;
      socket.onerror = null;
      socket.onmessage = null;
      socket.close();
      video.removeAttribute('src');
      video.load();
      URL.revokeObjectURL(objectUrl);
    };
  }, [wsUrl]);

  return (
    <video
      ref={ref}
      data-testid={testId}
      data-player="mse"
      muted
      autoPlay
      playsInline
      style={{ width: '100%', height: '100%', background: '#000', objectFit: 'contain', display: 'block' }}
    />
  );
}

/**
 * A live camera: the low-latency MSE path when the browser and the socket allow it, reconnecting a few times after
 * a drop (also one before the first frame: a relay restarting, a socket that did not open on a busy server);
 * otherwise (or after repeated failures) the HLS player, with the reason in the console.
 */
export function LivePlayer({
  hlsUrl,
  wsUrl,
  testId,
  onError,
}: {
  hlsUrl: string;
  wsUrl: string | null;
  testId?: string;
  onError?: (message: string) => void;
}) {
  const [mode, setMode] = useState<'mse' | 'hls'>(() => (wsUrl && mseSupported() && lowLatencyPreferred() ? 'mse' : 'hls'));
  const [attempt, setAttempt] = useState(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // drops in a row that came soon after (re)connecting; a stream that ran a while resets the count
  const quickDrops = useRef(0);
  const startedAt = useRef(Date.now());
  useEffect(() => () => clearTimeout(timer.current), []);
  if (mode === 'mse' && wsUrl) {
    return (
      <MsePlayer
        key={attempt}
        wsUrl={wsUrl}
        testId={testId}
        onFail={(reason, played, dropped) => {
          quickDrops.current = Date.now() - startedAt.current < 30_000 ? quickDrops.current + 1 : 0;
          if (afterLiveFailure({ played, dropped, quickDrops: quickDrops.current }) === 'retry') {
            timer.current = setTimeout(() => {
              startedAt.current = Date.now();
              setAttempt((n) => n + 1);
            }, 1000);
          } else {
            console.warn(`Live view: low latency unavailable, playing HLS instead (${reason})`);
            setMode('hls');
          }
        }}
      />
    );
  }
  return <HlsPlayer src={hlsUrl} live testId={testId} onError={onError} />;
}
