import Hls from 'hls.js';
import { useEffect, useRef } from 'react';

export interface HlsPlayerProps {
  src: string | null;
  /** Live: stay near the live edge with low-latency settings; no controls. */
  live?: boolean;
  controls?: boolean;
  testId?: string;
  /** The wall-clock time of the frame on screen (from the playlist's EXT-X-PROGRAM-DATE-TIME), when known. */
  onTimeUpdate?: (seconds: number, playingDate: Date | null) => void;
  onError?: (message: string) => void;
  /** Headers of every playlist and segment request (a shared link's token); such a source needs hls.js. */
  requestHeaders?: Record<string, string>;
}

/** A <video> fed by hls.js (or the browser's own HLS). Cookies authenticate the playlist and segment requests. */
export function HlsPlayer({ src, live = false, controls = !live, testId, onTimeUpdate, onError, requestHeaders }: HlsPlayerProps) {
  const ref = useRef<HTMLVideoElement>(null);
  const errorRef = useRef(onError);
  const hlsRef = useRef<Hls | null>(null);
  errorRef.current = onError;
  const headersKey = requestHeaders ? JSON.stringify(requestHeaders) : '';

  useEffect(() => {
    const video = ref.current;
    if (!video || !src) return;
    const play = () => void video.play().catch(() => undefined);
    if (Hls.isSupported()) {
      const hls = new Hls({
        lowLatencyMode: live,
        liveSyncDurationCount: live ? 1 : 3,
        liveMaxLatencyDurationCount: live ? 3 : Number.POSITIVE_INFINITY,
        maxLiveSyncPlaybackRate: live ? 1.5 : 1,
        ...(headersKey
          ? {
              xhrSetup: (xhr: XMLHttpRequest) => {
                for (const [name, value] of Object.entries(JSON.parse(headersKey) as Record<string, string>))
                  xhr.setRequestHeader(name, value);
              },
            }
          : {}),
        manifestLoadPolicy: {
          default: {
            maxTimeToFirstByteMs: 10_000,
            maxLoadTimeMs: 20_000,
            timeoutRetry: { maxNumRetry: 4, retryDelayMs: 0, maxRetryDelayMs: 0 },
            errorRetry: { maxNumRetry: 10, retryDelayMs: 1000, maxRetryDelayMs: 4000 },
          },
        },
      });
      hls.on(Hls.Events.MANIFEST_PARSED, play);
      hls.on(Hls.Events.ERROR, (_event, data) => {
        if (data.fatal) errorRef.current?.(data.details);
      });
      hls.loadSource(src);
      hls.attachMedia(video);
      hlsRef.current = hls;
      return () => {
        hlsRef.current = null;
        hls.destroy();
      };
    }
    if (!headersKey && video.canPlayType('application/vnd.apple.mpegurl')) {
      video.src = src;
      video.addEventListener('loadedmetadata', play, { once: true });
      return () => {
        video.removeAttribute('src');
        video.load();
      };
    }
    errorRef.current?.('HLS is not supported by this browser');
    return undefined;
  }, [src, live, headersKey]);

  return (
    <video
      ref={ref}
      data-testid={testId}
      muted
      playsInline
      controls={controls}
      onTimeUpdate={(e) => {
        const date = hlsRef.current?.playingDate ?? null;
        // exposed for the latency benchmark and browser tests: the wall-clock time of the frame on screen
        if (date) e.currentTarget.dataset.playingDate = String(date.getTime());
        onTimeUpdate?.(e.currentTarget.currentTime, date);
      }}
      style={{ width: '100%', height: '100%', background: '#000', objectFit: 'contain', display: 'block' }}
    />
  );
}
