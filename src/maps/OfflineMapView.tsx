import type { ECharts } from 'echarts/core';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { EChart } from '../charts/EChart';
import { focusWindow, groupByState, MAP_GRID, offlineMapOption, pointOfEvent, pointsExtent, ZOOM_X, ZOOM_Y } from './offlineOption';
import type { MapViewProps } from './types';

/** The plot's size in pixels (the chart without its grid margins). */
function plotSize(chart: ECharts): { width: number; height: number } {
  return { width: chart.getWidth() - MAP_GRID.left - MAP_GRID.right, height: chart.getHeight() - MAP_GRID.top - MAP_GRID.bottom };
}

/**
 * The default map provider: no network, the devices on a coordinate plane drawn by echarts. Wheel
 * zooms, drag pans, a click opens the device. The view's centre is written on the element
 * (data-center-longitude / -latitude) for whoever needs to know where the user is looking.
 */
export default function OfflineMapView({ points, focus, onOpenDevice, stateLabel, height = 520, dark = false }: MapViewProps) {
  const [chart, setChart] = useState<ECharts | null>(null);
  const holder = useRef<HTMLDivElement>(null);
  const groups = useMemo(() => groupByState(points), [points]);
  const option = useMemo(
    () => offlineMapOption(points, { stateLabel, dark, focus, groups, plot: chart ? plotSize(chart) : undefined }),
    [points, stateLabel, dark, focus, groups, chart],
  );

  const reportCentre = useCallback(() => {
    if (!chart || !holder.current) return;
    const { width, height: plotHeight } = plotSize(chart);
    const centre = chart.convertFromPixel({ gridIndex: 0 }, [MAP_GRID.left + width / 2, MAP_GRID.top + plotHeight / 2]) as number[] | undefined;
    if (!centre || !Number.isFinite(centre[0]) || !Number.isFinite(centre[1])) return;
    holder.current.dataset.centerLongitude = centre[0].toFixed(5);
    holder.current.dataset.centerLatitude = centre[1].toFixed(5);
  }, [chart]);

  // Where the view goes: a new focus (a place picked in the search box) to its window; new
  // points (other filters) or no focus any more to the whole fleet. A refresh that brings the
  // same extent leaves the user's zoom alone.
  const extent = pointsExtent(points);
  const extentKey = [extent.west, extent.east, extent.south, extent.north].map((value) => value.toFixed(4)).join(',');
  useEffect(() => {
    if (!chart) return;
    // The option (its axes stretched to reach the focus) was applied by the chart's own effect,
    // which runs first: children's effects run before their parent's.
    if (focus) {
      const { width, height: plotHeight } = plotSize(chart);
      const view = focusWindow(focus, width, plotHeight);
      chart.dispatchAction({
        type: 'dataZoom',
        batch: [
          { dataZoomId: ZOOM_X, startValue: view.west, endValue: view.east },
          { dataZoomId: ZOOM_Y, startValue: view.south, endValue: view.north },
        ],
      });
    } else {
      chart.dispatchAction({ type: 'dataZoom', batch: [ZOOM_X, ZOOM_Y].map((dataZoomId) => ({ dataZoomId, start: 0, end: 100 })) });
    }
    reportCentre();
  }, [chart, focus, extentKey, reportCentre]);

  const events = useMemo(
    () => ({
      click: (params: unknown) => {
        const point = pointOfEvent(points, groups, params);
        if (point) onOpenDevice(point.code);
      },
      finished: () => reportCentre(),
    }),
    [points, groups, onOpenDevice, reportCentre],
  );

  return (
    <div ref={holder} data-testid="device-map" data-provider="offline" data-points={points.length} style={{ position: 'relative' }}>
      <EChart option={option} label="设备分布地图" height={height} events={events} onInstance={setChart} update="series" />
    </div>
  );
}
