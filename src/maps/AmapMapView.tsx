import { Alert } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { loadAmap, type AmapInfoWindow, type AmapMap, type AmapMassItem, type AmapMassMarks, type AmapNamespace } from './amapLoader';
import { MAPS_CONFIG } from './config';
import { deviceTooltip, pointsExtent } from './offlineOption';
import OfflineMapView from './OfflineMapView';
import { ONLINE_STATE_COLOURS, ONLINE_STATES, type MapViewProps } from './types';

const DOT_SIZE = 8;

/** A round dot of `colour` as an image (MassMarks draws images); data urls pass the page's CSP. */
function dotImage(colour: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${DOT_SIZE}" height="${DOT_SIZE}"><circle cx="${DOT_SIZE / 2}" cy="${DOT_SIZE / 2}" r="${DOT_SIZE / 2 - 0.5}" fill="${colour}" fill-opacity="0.85"/></svg>`;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** The web-mercator zoom that shows `span` degrees of longitude across `widthPixels`. */
export function zoomForSpan(span: number, widthPixels: number): number {
  const zoom = Math.log2((360 * Math.max(widthPixels, 256)) / (256 * Math.max(span, 1e-4)));
  return Math.min(18, Math.max(3, Math.round(zoom)));
}

interface Loaded {
  amap: AmapNamespace;
  map: AmapMap;
  mass: AmapMassMarks;
  info: AmapInfoWindow;
}

/**
 * The third-party provider: AMap's JS API (loaded on first use, only with a configured key), the
 * devices as mass markers coloured by online state. If the script cannot load, the offline map
 * takes its place with a notice.
 */
export default function AmapMapView(props: MapViewProps) {
  const { points, focus, onOpenDevice, stateLabel, height = 520, dark = false } = props;
  const holder = useRef<HTMLDivElement>(null);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const latest = useRef({ points, onOpenDevice, stateLabel });
  useEffect(() => {
    latest.current = { points, onOpenDevice, stateLabel };
  });

  useEffect(() => {
    const key = MAPS_CONFIG.key;
    if (!key) return;
    let cancelled = false;
    let created: Loaded | null = null;
    loadAmap(key, MAPS_CONFIG.securityCode)
      .then((amap) => {
        if (cancelled || !holder.current) return;
        const map = new amap.Map(holder.current, { zoom: 11, center: [120.155, 30.274], viewMode: '2D', mapStyle: dark ? 'amap://styles/darkblue' : undefined });
        const style = ONLINE_STATES.map((state) => ({ url: dotImage(ONLINE_STATE_COLOURS[state]), anchor: new amap.Pixel(DOT_SIZE / 2, DOT_SIZE / 2), size: new amap.Size(DOT_SIZE, DOT_SIZE) }));
        const mass = new amap.MassMarks([], { zIndex: 120, zooms: [3, 20], style });
        mass.setMap(map);
        const info = new amap.InfoWindow({ offset: new amap.Pixel(0, -DOT_SIZE) });
        const pointOf = (item: AmapMassItem) => latest.current.points[item.index];
        mass.on('click', ({ data }) => {
          const point = pointOf(data);
          if (point) latest.current.onOpenDevice(point.code);
        });
        mass.on('mouseover', ({ data }) => {
          const point = pointOf(data);
          if (!point) return;
          info.setContent(`<div style="font-size:12px;line-height:1.7">${deviceTooltip(point, latest.current.stateLabel)}</div>`);
          info.open(map, [point.longitude, point.latitude]);
        });
        mass.on('mouseout', () => info.close());
        created = { amap, map, mass, info };
        setLoaded(created);
      })
      .catch((error: unknown) => {
        if (!cancelled) setFailure(error instanceof Error ? error.message : String(error));
      });
    return () => {
      cancelled = true;
      created?.mass.clear();
      created?.map.destroy();
    };
  }, [dark]);

  useEffect(() => {
    if (!loaded) return;
    const stateIndex = (state: string) => Math.max(0, ONLINE_STATES.indexOf(state as (typeof ONLINE_STATES)[number]));
    loaded.mass.setData(points.map((point, index) => ({ lnglat: [point.longitude, point.latitude], style: stateIndex(point.onlineState), index })));
    if (!focus && points.length > 0) {
      const extent = pointsExtent(points);
      const span = Math.max(extent.east - extent.west, extent.north - extent.south);
      loaded.map.setZoomAndCenter(zoomForSpan(span, holder.current?.clientWidth ?? 800), [(extent.west + extent.east) / 2, (extent.south + extent.north) / 2]);
    }
  }, [loaded, points, focus]);

  useEffect(() => {
    if (!loaded || !focus) return;
    loaded.map.setZoomAndCenter(zoomForSpan(focus.span, holder.current?.clientWidth ?? 800), [focus.longitude, focus.latitude]);
    const marker = new loaded.amap.Marker({ position: [focus.longitude, focus.latitude], title: focus.label });
    loaded.map.add(marker);
    if (holder.current) {
      holder.current.dataset.centerLongitude = focus.longitude.toFixed(5);
      holder.current.dataset.centerLatitude = focus.latitude.toFixed(5);
    }
    return () => loaded.map.remove(marker);
  }, [loaded, focus]);

  if (failure) {
    return (
      <div>
        <Alert type="warning" showIcon style={{ marginBottom: 8 }} message={`第三方地图不可用（${failure}），已改用离线地图`} />
        <OfflineMapView {...props} />
      </div>
    );
  }
  return <div ref={holder} data-testid="device-map" data-provider="amap" data-points={points.length} role="img" aria-label="设备分布地图" style={{ width: '100%', height }} />;
}
