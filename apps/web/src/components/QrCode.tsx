import { useEffect, useState } from 'react';
import { svgDataUrl } from '../lib/svg.ts';

/** A QR code drawn in the browser; the encoder loads only when one is shown. Plain HTML, usable anywhere. */
export function QrCode({ value, label, size = 180 }: { value: string; label: string; size?: number }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    import('uqr')
      .then(({ renderSVG }) => {
        if (live) setSrc(svgDataUrl(renderSVG(value, { border: 2, ecc: 'M' })));
      })
      .catch(() => {
        if (live) setSrc(null);
      });
    return () => {
      live = false;
    };
  }, [value]);
  const box = { width: size, height: size, display: 'block', background: '#fff', borderRadius: 8 } as const;
  if (!src) return <div role="img" aria-label={label} style={{ ...box, opacity: 0.4 }} />;
  return <img src={src} alt={label} width={size} height={size} data-testid="qr-code" style={{ ...box, imageRendering: 'pixelated' }} />;
}
