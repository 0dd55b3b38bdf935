import { BarChart, GaugeChart, LineChart, ScatterChart } from 'echarts/charts';
import { DataZoomInsideComponent, DataZoomSliderComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { init, use as registerCharts, type ECharts, type EChartsCoreOption } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useReducedMotion } from '../../renderers/runtime/motion';
import { useEffect, useRef, type CSSProperties } from 'react';

// STACK.md: echarts from echarts/core with only what the map and the big screen draw.
registerCharts([
  ScatterChart,
  LineChart,
  BarChart,
  GaugeChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  DataZoomInsideComponent,
  DataZoomSliderComponent,
  CanvasRenderer,
]);

export type ChartEvents = Record<string, (params: unknown) => void>;

export interface EChartProps {
  option: EChartsCoreOption;
  /** Accessible name of the chart (role img). */
  label: string;
  height?: number | string;
  /** Event handlers by echarts event name (click, datazoom…). */
  events?: ChartEvents;
  /** Called once the instance exists (and with null when it is disposed). */
  onInstance?: (chart: ECharts | null) => void;
  style?: CSSProperties;
  testId?: string;
  /**
   * How a new option is applied: `replace` (the default) starts over; `series` replaces only the
   * series and keeps the rest, such as where the user has zoomed to.
   */
  update?: 'replace' | 'series';
}

/** One echarts instance bound to a div: resized with its container, disposed on unmount. */
export function EChart({ option, label, height = 280, events, onInstance, style, testId, update = 'replace' }: EChartProps) {
  const holder = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  const latestEvents = useRef(events);
  const latestOnInstance = useRef(onInstance);
  useEffect(() => {
    latestEvents.current = events;
    latestOnInstance.current = onInstance;
  });

  useEffect(() => {
    if (!holder.current) return;
    const instance = init(holder.current, undefined, { renderer: 'canvas' });
    chart.current = instance;
    latestOnInstance.current?.(instance);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => instance.resize());
    observer?.observe(holder.current);
    return () => {
      observer?.disconnect();
      latestOnInstance.current?.(null);
      instance.dispose();
      chart.current = null;
    };
  }, []);

  const reducedMotion = useReducedMotion();
  useEffect(() => {
    const shown = reducedMotion ? { ...option, animation: false } : option;
    if (update === 'series') chart.current?.setOption(shown, { replaceMerge: ['series'] });
    else chart.current?.setOption(shown, true);
  }, [option, update, reducedMotion]);

  const eventNames = Object.keys(events ?? {}).sort().join(',');
  useEffect(() => {
    const instance = chart.current;
    if (!instance || !eventNames) return;
    const names = eventNames.split(',');
    for (const name of names) instance.on(name, (params: unknown) => latestEvents.current?.[name]?.(params));
    return () => {
      for (const name of names) instance.off(name);
    };
  }, [eventNames]);

  return <div ref={holder} role="img" aria-label={label} data-testid={testId} style={{ width: '100%', height, ...style }} />;
}
