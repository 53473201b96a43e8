import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import { CAMERA_CONSTANTS, VIDEO_MESSAGES } from '@sitewatch/contracts/video';
import { useEffect, useState } from 'react';
import { fetchSnapshot } from './api.ts';

/** The default picture shown when no snapshot can be had (SPEC 8.3). */
export const SNAPSHOT_PLACEHOLDER = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="180" viewBox="0 0 320 180"><rect width="320" height="180" fill="#263238"/><g fill="none" stroke="#90a4ae" stroke-width="6"><rect x="110" y="62" width="80" height="56" rx="8"/><path d="M190 80l30-16v52l-30-16"/></g><text x="160" y="150" fill="#b0bec5" font-family="sans-serif" font-size="14" text-anchor="middle">No snapshot</text></svg>',
)}`;

/**
 * A fresh snapshot of a camera: SPEC 9 retries up to 5 times, 3 s apart, then falls back to the placeholder.
 */
export function Snapshot({ cameraId, alt, height = 180 }: { cameraId: number; alt: string; height?: number }) {
  const [src, setSrc] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [failed, setFailed] = useState(false);
  const [loaded, setLoaded] = useState(false);

  // a new camera starts over
  const [shownFor, setShownFor] = useState(cameraId);
  if (shownFor !== cameraId) {
    setShownFor(cameraId);
    setSrc(null);
    setAttempt(0);
    setFailed(false);
    setLoaded(false);
  }

  useEffect(() => {
    if (src || failed) return;
    let cancelled = false;
    const timer = setTimeout(
      async () => {
        const result = await fetchSnapshot(cameraId).catch(() => ({ err: 'failed' }) as { path?: string; err?: string });
        if (cancelled) return;
        if ('path' in result && result.path) setSrc(result.path);
        // a camera without video configuration has no picture to wait for
        else if ('err' in result && result.err === VIDEO_MESSAGES.cameraNotConfigured) setFailed(true);
        else if (attempt + 1 >= CAMERA_CONSTANTS.snapshotTries) setFailed(true);
        else setAttempt((a) => a + 1);
      },
      attempt === 0 ? 0 : CAMERA_CONSTANTS.snapshotRetryMs,
    );
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [cameraId, attempt, src, failed]);

  if (!src && !failed) return <Skeleton variant="rectangular" height={height} data-testid="snapshot-loading" />;
  return (
    <Box sx={{ position: 'relative', height }}>
      <img
        src={failed ? SNAPSHOT_PLACEHOLDER : (src as string)}
        alt={alt}
        data-testid={failed ? 'snapshot-placeholder' : 'snapshot'}
        style={{ width: '100%', height, objectFit: 'cover', display: 'block', background: '#263238' }}
        onLoad={() => setLoaded(true)}
        onError={() => {
          // the image itself failed: count it as a try
          setSrc(null);
          setLoaded(false);
          if (attempt + 1 >= CAMERA_CONSTANTS.snapshotTries) setFailed(true);
          else setAttempt((a) => a + 1);
        }}
      />
      {/* until the picture has arrived, a loading shape rather than an empty dark box */}
      {loaded || failed ? null : <Skeleton variant="rectangular" height={height} sx={{ position: 'absolute', inset: 0 }} />}
    </Box>
  );
}
