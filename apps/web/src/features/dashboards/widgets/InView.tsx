import Box from '@mui/material/Box';
import { type ReactNode, useEffect, useRef, useState } from 'react';

/**
 * Renders its children once the box has come near the viewport (and keeps them): widgets below the fold fetch and
 * draw nothing until scrolled to. Without IntersectionObserver everything renders.
 */
export function InView({ children, margin = '200px' }: { children: (visible: boolean) => ReactNode; margin?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const el = box.current;
    if (seen || !el) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setSeen(true);
          observer.disconnect();
        }
      },
      { rootMargin: margin },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [seen, margin]);
  return (
    <Box ref={box} sx={{ width: '100%', height: '100%', minHeight: 0 }}>
      {children(seen)}
    </Box>
  );
}
