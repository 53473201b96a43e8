import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { GaugeChart, PieChart } from 'echarts/charts';
import { LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { usePrefersReducedMotion } from '../../../lib/reduced-motion.ts';

echarts.use([GaugeChart, PieChart, LegendComponent, TooltipComponent, CanvasRenderer]);

export type EChartOption = echarts.EChartsCoreOption;

/**
 * One ECharts instance (gauges and pies only, modular build) sized to its box, following the theme. `minHeight` 0
 * lets a chart shrink into whatever room its widget leaves, instead of reaching past the widget's edge.
 */
export function EChart({ option, testId, minHeight = 120 }: { option: EChartOption; testId?: string; minHeight?: number }) {
  const theme = useTheme();
  const animation = !usePrefersReducedMotion();
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const latest = useRef(option);
  latest.current = option;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const instance = echarts.init(el, theme.palette.mode === 'dark' ? 'dark' : undefined, { renderer: 'canvas' });
    chart.current = instance;
    instance.setOption({ backgroundColor: 'transparent', animation, ...latest.current }, true);
    const resize = new ResizeObserver(() => instance.resize());
    resize.observe(el);
    return () => {
      resize.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [theme.palette.mode, animation]);

  useEffect(() => {
    chart.current?.setOption({ backgroundColor: 'transparent', animation, ...option }, true);
  }, [option, animation]);

  return <Box ref={box} data-testid={testId} sx={{ width: '100%', height: '100%', minHeight }} />;
}
