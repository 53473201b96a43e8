import 'uplot/dist/uPlot.min.css';
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import { selectionToRange, type TimeRange } from '../range-sync.ts';
import { alignSeries, SERIES_COLORS, type SeriesPoints } from './series-data.ts';

/**
 * A uPlot time-series chart sized to its box. Dragging across it selects a time range (`onSelect`); the chart is
 * rebuilt only when its series change shape, new data is handed to `setData`.
 */
export function TimeSeriesChart({
  series,
  span,
  onSelect,
  testId,
}: {
  series: readonly SeriesPoints[];
  /** The time range asked for (ms): the axis shows all of it, even where there are few or no points yet. */
  span?: { start: number; end: number };
  onSelect?: (range: TimeRange | null) => void;
  testId?: string;
}) {
  const theme = useTheme();
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const select = useRef(onSelect);
  select.current = onSelect;
  const shape = series.map((s) => s.label).join('\u0000');
  const dataRef = useRef(series);
  dataRef.current = series;
  const spanRef = useRef(span);
  spanRef.current = span;

  // biome-ignore lint/correctness/useExhaustiveDependencies: rebuilt when the series change shape or the theme does
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const text = theme.palette.text.secondary;
    const grid = theme.palette.divider;
    const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const opts: uPlot.Options = {
      width: Math.max(100, el.clientWidth),
      height: Math.max(80, el.clientHeight - 28),
      legend: { show: true, live: false },
      cursor: { drag: { x: true, y: false, setScale: false } },
      scales: {
        x: {
          time: true,
          range: (_u, min, max) => (spanRef.current ? [spanRef.current.start / 1000, spanRef.current.end / 1000] : [min, max]),
        },
      },
      axes: [axis, { ...axis, size: 52 }],
      series: [
        {},
        ...dataRef.current.map((s, i) => ({
          label: s.label,
          stroke: SERIES_COLORS[i % SERIES_COLORS.length],
          width: 1.5,
          spanGaps: true,
          points: { show: false },
        })),
      ],
      hooks: {
        setSelect: [
          (u: uPlot) => {
            const range = selectionToRange(u.select, (px) => u.posToVal(px, 'x'));
            if (range) select.current?.(range);
            u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
          },
        ],
      },
    };
    const chart = new uPlot(opts, alignSeries(dataRef.current) as uPlot.AlignedData, el);
    plot.current = chart;
    // A legend of many series scrolls: the keyboard must be able to reach it too (WCAG 2.1.1).
    const legendBox = chart.root.querySelector<HTMLElement>('.u-legend');
    legendBox?.setAttribute('tabindex', '0');
    legendBox?.setAttribute('aria-label', 'Chart legend');
    // the legend takes what it needs below the plot (one or more rows), the plot the rest of the box
    const fit = () => {
      const legend = chart.root.querySelector<HTMLElement>('.u-legend')?.offsetHeight ?? 0;
      chart.setSize({ width: Math.max(100, el.clientWidth), height: Math.max(60, el.clientHeight - legend - 4) });
    };
    fit();
    const resize = new ResizeObserver(fit);
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
      plot.current = null;
    };
  }, [shape, theme.palette.mode]);

  useEffect(() => {
    plot.current?.setData(alignSeries(series) as uPlot.AlignedData);
  }, [series]);

  return (
    <Box
      ref={box}
      data-testid={testId}
      sx={{
        width: '100%',
        height: '100%',
        minHeight: 120,
        overflow: 'hidden',
        // many series: the legend scrolls in two rows at most, the plot keeps the rest of the box
        '& .u-legend': { color: 'text.secondary', fontSize: 12, maxHeight: 40, overflowY: 'auto' },
        '& .u-select': { bgcolor: 'rgba(79,195,247,0.2)' },
      }}
    />
  );
}
