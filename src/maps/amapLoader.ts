/**
 * Loads the AMap JS API (version 2.0) once, by adding its script to the page: only ever called
 * when a maps key is configured, never by the offline map or in tests.
 */

export const AMAP_SCRIPT_BASE = 'https://webapi.amap.com/maps';
const LOAD_TIMEOUT_MS = 20_000;

/** The part of the AMap JS API the console uses. */
export interface AmapLngLat {
  getLng(): number;
  getLat(): number;
}

export interface AmapMap {
  setZoomAndCenter(zoom: number, center: [number, number]): void;
  setFitView(overlays?: unknown[]): void;
  getCenter(): AmapLngLat;
  on(event: string, handler: () => void): void;
  add(overlay: unknown): void;
  remove(overlay: unknown): void;
  destroy(): void;
}

export interface AmapMassItem {
  lnglat: [number, number];
  style: number;
  /** The point's index in the console's list. */
  index: number;
}

export interface AmapMassMarks {
  setMap(map: AmapMap | null): void;
  setData(items: AmapMassItem[]): void;
  on(event: 'click' | 'mouseover' | 'mouseout', handler: (event: { data: AmapMassItem }) => void): void;
  clear(): void;
}

export interface AmapInfoWindow {
  open(map: AmapMap, position: [number, number]): void;
  close(): void;
  setContent(content: string): void;
}

export interface AmapNamespace {
  Map: new (container: HTMLElement, options: { zoom: number; center: [number, number]; mapStyle?: string; viewMode?: '2D' | '3D' }) => AmapMap;
  MassMarks: new (items: AmapMassItem[], options: { zIndex?: number; zooms?: [number, number]; style: Array<{ url: string; anchor: unknown; size: unknown }> }) => AmapMassMarks;
  InfoWindow: new (options: { content?: string; offset?: unknown; isCustom?: boolean }) => AmapInfoWindow;
  Marker: new (options: { position: [number, number]; title?: string }) => unknown;
  Pixel: new (x: number, y: number) => unknown;
  Size: new (width: number, height: number) => unknown;
}

interface AmapWindow {
  AMap?: AmapNamespace;
  _AMapSecurityConfig?: { securityJsCode: string };
}

export function amapScriptUrl(key: string): string {
  return `${AMAP_SCRIPT_BASE}?${new URLSearchParams({ v: '2.0', key }).toString()}`;
}

let loading: Promise<AmapNamespace> | null = null;

/** The AMap namespace, loading the script on first use (one script however many maps ask). */
export function loadAmap(key: string, securityCode?: string, target: Window = window): Promise<AmapNamespace> {
  const global = target as unknown as AmapWindow;
  if (global.AMap) return Promise.resolve(global.AMap);
  if (loading) return loading;
  if (securityCode) global._AMapSecurityConfig = { securityJsCode: securityCode };
  loading = new Promise<AmapNamespace>((resolve, reject) => {
    const script = target.document.createElement('script');
    const timer = setTimeout(() => fail(new Error('高德地图脚本加载超时')), LOAD_TIMEOUT_MS);
    function fail(error: Error) {
      clearTimeout(timer);
      script.remove();
      loading = null;
      reject(error);
    }
    script.src = amapScriptUrl(key);
    script.async = true;
    script.onload = () => {
      clearTimeout(timer);
      if (global.AMap) resolve(global.AMap);
      else fail(new Error('高德地图脚本未提供 AMap'));
    };
    script.onerror = () => fail(new Error('高德地图脚本加载失败'));
    target.document.head.appendChild(script);
  });
  return loading;
}

/** Forgets a finished or failed load (tests). */
export function resetAmapLoader(): void {
  loading = null;
}
