import { BarChart, GaugeChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { init, use as registerCharts, type EChartsCoreOption } from 'echarts/core';
import { LabelLayout } from 'echarts/features';
import { CanvasRenderer } from 'echarts/renderers';
import { useReducedMotion } from '../runtime/motion';
import { useEffect, useRef } from 'react';

// STACK.md: echarts from echarts/core with only what the dashboards draw.
// LabelLayout: pie labels that would overlap are hidden instead of drawn over each other.
registerCharts([LineChart, BarChart, PieChart, GaugeChart, GridComponent, TooltipComponent, LegendComponent, LabelLayout, CanvasRenderer]);

/** One echarts instance bound to a div; resized with its container, disposed on unmount. */
export function Chart({ option, height = 280, label }: { option: EChartsCoreOption; height?: number; label: string }) {
  const holder = useRef<HTMLDivElement>(null);
  const chart = useRef<ReturnType<typeof init> | null>(null);
  useEffect(() => {
    if (!holder.current) return;
    const instance = init(holder.current, undefined, { renderer: 'canvas' });
    chart.current = instance;
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => instance.resize());
    observer?.observe(holder.current);
    return () => {
      observer?.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);
  const reducedMotion = useReducedMotion();
  useEffect(() => {
    chart.current?.setOption(reducedMotion ? { ...option, animation: false } : option, true);
  }, [option, reducedMotion]);
  return <div ref={holder} role="img" aria-label={label} style={{ width: '100%', height }} />;
}
