import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useState } from 'react';
import { formatDateTime } from '../../lib/format.ts';

export interface Point {
  ts: number;
  value: number;
}

const H = 240;
const PAD = { left: 60, right: 12, top: 12, bottom: 28 };

/** Round tick values (1, 2 or 5 times a power of ten) covering lo..hi, about `count` of them. */
export function niceTicks(lo: number, hi: number, count = 5): { ticks: number[]; lo: number; hi: number; decimals: number } {
  const raw = (hi - lo) / Math.max(1, count - 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
  const first = Math.floor(lo / step) * step;
  const last = Math.ceil(hi / step) * step;
  const ticks: number[] = [];
  for (let v = first; v <= last + step / 2; v += step) ticks.push(Number(v.toFixed(12)));
  return { ticks, lo: first, hi: last, decimals: Math.max(0, -Math.floor(Math.log10(step))) };
}

/** Time labels as short as the range allows (hours within a day, else day and time), so that they never collide. */
const timeText = (ts: number, spanMs: number) =>
  new Date(ts).toLocaleString(
    undefined,
    spanMs <= 86_400_000 ? { hour: '2-digit', minute: '2-digit' } : { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' },
  );

const tickText = (v: number, decimals: number) =>
  v.toLocaleString(undefined, { minimumFractionDigits: decimals, maximumFractionDigits: decimals });

/** The chart draws at the width it is given on screen, so that its text keeps its size on a phone. */
function useWidth() {
  // a callback ref: the measured element changes between the empty state and the chart
  const [el, ref] = useState<HTMLElement | null>(null);
  const [width, setWidth] = useState(800);
  useEffect(() => {
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry && entry.contentRect.width > 0) setWidth(Math.max(240, Math.round(entry.contentRect.width)));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [el]);
  return { ref, width };
}

/** A light SVG line chart of one series over time, with a hover read-out. */
export function LineChart({ points, from, to, label }: { points: Point[]; from: number; to: number; label: string }) {
  const theme = useTheme();
  const [hover, setHover] = useState<Point | null>(null);
  const { ref, width: W } = useWidth();
  const { path, yTicks, decimals, x, y } = useMemo(() => {
    const values = points.map((p) => p.value);
    let min = Math.min(...values);
    let max = Math.max(...values);
    if (min === max) {
      min -= Math.abs(min) > 10 ? Math.abs(min) * 0.01 : 1;
      max += Math.abs(max) > 10 ? Math.abs(max) * 0.01 : 1;
    }
    const nice = points.length ? niceTicks(min, max) : { ticks: [], lo: 0, hi: 1, decimals: 0 };
    const { lo, hi } = nice;
    const x = (ts: number) => PAD.left + ((ts - from) / Math.max(1, to - from)) * (W - PAD.left - PAD.right);
    const y = (v: number) => PAD.top + (1 - (v - lo) / (hi - lo)) * (H - PAD.top - PAD.bottom);
    const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.ts).toFixed(1)},${y(p.value).toFixed(1)}`).join('');
    return { path, yTicks: nice.ticks, decimals: nice.decimals, x, y };
  }, [points, from, to, W]);

  if (points.length === 0) {
    return (
      <Typography ref={ref} variant="body2" color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
        No numeric values of {label} in this time range.
      </Typography>
    );
  }

  function handleMove(event: React.MouseEvent<SVGSVGElement>) {
    const rect = event.currentTarget.getBoundingClientRect();
    const ts = from + (((event.clientX - rect.left) / rect.width) * W - PAD.left) / ((W - PAD.left - PAD.right) / Math.max(1, to - from));
    let best = points[0] as Point;
    for (const p of points) if (Math.abs(p.ts - ts) < Math.abs(best.ts - ts)) best = p;
    setHover(best);
  }

  const stroke = theme.palette.primary.main;
  const grid = theme.palette.divider;
  const text = theme.palette.text.secondary;
  return (
    <Box ref={ref}>
      <Box
        component="svg"
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`Chart of ${label}`}
        data-testid="telemetry-chart"
        sx={{ width: '100%', height: 'auto', display: 'block' }}
        onMouseMove={handleMove}
        onMouseLeave={() => setHover(null)}
      >
        {yTicks.map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} stroke={grid} />
            <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" fontSize="12" fill={text}>
              {tickText(v, decimals)}
            </text>
          </g>
        ))}
        {(W < 520 ? [from, to] : [from, (from + to) / 2, to]).map((ts, i, all) => (
          <text
            key={ts}
            x={x(ts)}
            y={H - 8}
            textAnchor={i === 0 ? 'start' : i === all.length - 1 ? 'end' : 'middle'}
            fontSize="12"
            fill={text}
          >
            {timeText(ts, to - from)}
          </text>
        ))}
        <path d={path} fill="none" stroke={stroke} strokeWidth={1.8} />
        {points.length < 60 ? points.map((p) => <circle key={p.ts} cx={x(p.ts)} cy={y(p.value)} r={2.5} fill={stroke} />) : null}
        {hover ? (
          <g>
            <line x1={x(hover.ts)} x2={x(hover.ts)} y1={PAD.top} y2={H - PAD.bottom} stroke={text} strokeDasharray="3 3" />
            <circle cx={x(hover.ts)} cy={y(hover.value)} r={4} fill={stroke} />
          </g>
        ) : null}
      </Box>
      <Typography variant="caption" color="text.secondary" sx={{ minHeight: 20, display: 'block' }}>
        {hover ? `${formatDateTime(hover.ts)} · ${label} ${hover.value}` : `${points.length} points`}
      </Typography>
    </Box>
  );
}
