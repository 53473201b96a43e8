import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { formatDateTime } from '../../lib/format.ts';

export interface Point {
  ts: number;
  value: number;
}

const W = 800;
const H = 240;
const PAD = { left: 56, right: 12, top: 12, bottom: 28 };

function ticks(min: number, max: number, count: number): number[] {
  if (min === max) return [min];
  const step = (max - min) / (count - 1);
  return Array.from({ length: count }, (_, i) => min + i * step);
}

const short = (v: number) => (Math.abs(v) >= 1000 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2));

/** A light SVG line chart of one series over time, with a hover read-out. */
export function LineChart({ points, from, to, label }: { points: Point[]; from: number; to: number; label: string }) {
  const theme = useTheme();
  const [hover, setHover] = useState<Point | null>(null);
  const { path, yTicks, x, y } = useMemo(() => {
    const values = points.map((p) => p.value);
    let lo = Math.min(...values);
    let hi = Math.max(...values);
    if (lo === hi) {
      lo -= 1;
      hi += 1;
    }
    const x = (ts: number) => PAD.left + ((ts - from) / Math.max(1, to - from)) * (W - PAD.left - PAD.right);
    const y = (v: number) => PAD.top + (1 - (v - lo) / (hi - lo)) * (H - PAD.top - PAD.bottom);
    const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.ts).toFixed(1)},${y(p.value).toFixed(1)}`).join('');
    return { path, yTicks: ticks(lo, hi, 5), x, y };
  }, [points, from, to]);

  if (points.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
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
    <Box>
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
            <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" fontSize="11" fill={text}>
              {short(v)}
            </text>
          </g>
        ))}
        {[from, (from + to) / 2, to].map((ts, i) => (
          <text key={ts} x={x(ts)} y={H - 8} textAnchor={i === 0 ? 'start' : i === 2 ? 'end' : 'middle'} fontSize="11" fill={text}>
            {formatDateTime(ts)}
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
