// Which map the console draws: the offline map unless a maps key was configured at build, and
// the third-party script only ever loaded with a key.
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { amapScriptUrl, loadAmap, resetAmapLoader, type AmapNamespace } from '../../../src/maps/amapLoader';
import { MAPS_CONFIG, mapsConfigFrom, mapViewProviderFor } from '../../../src/maps/config';
import { DeviceMap } from '../../../src/maps/DeviceMap';
import type { MapViewProps } from '../../../src/maps/types';

vi.mock('../../../src/maps/OfflineMapView', () => ({
  default: ({ points }: MapViewProps) => <div data-testid="offline-map">{points.length} 个点位</div>,
}));
vi.mock('../../../src/maps/AmapMapView', () => ({
  default: ({ points }: MapViewProps) => <div data-testid="amap-map">{points.length} 个点位</div>,
}));

const props: MapViewProps = {
  points: [{ code: 'WMNB01000001', name: '智能水表-0001', longitude: 120.15, latitude: 30.27, onlineState: 'online', healthState: 'healthy', productName: 'NB-IoT 智能水表', address: '浙江省杭州市西湖区灵隐路1号' }],
  onOpenDevice: () => undefined,
  stateLabel: (state) => state,
};

const amapScripts = () => [...document.querySelectorAll('script')].filter((script) => script.src.includes('webapi.amap.com'));

afterEach(() => resetAmapLoader());

describe('provider selection', () => {
  it('reads the key and security code from the build environment, ignoring blanks', () => {
    expect(mapsConfigFrom({})).toEqual({ key: undefined, securityCode: undefined });
    expect(mapsConfigFrom({ VITE_MAPS_KEY: '  ', VITE_MAPS_SECURITY_CODE: '' })).toEqual({ key: undefined, securityCode: undefined });
    expect(mapsConfigFrom({ VITE_MAPS_KEY: ' abc123 ', VITE_MAPS_SECURITY_CODE: 'sec' })).toEqual({ key: 'abc123', securityCode: 'sec' });
  });

  it('chooses the offline map without a key and the third party with one', () => {
    expect(mapViewProviderFor({})).toBe('offline');
    expect(mapViewProviderFor({ key: 'abc123' })).toBe('amap');
    // The test build has no key.
    expect(MAPS_CONFIG.key).toBeUndefined();
  });

  it('draws the offline map by default and loads no maps script', async () => {
    render(<DeviceMap {...props} />);
    expect(await screen.findByTestId('offline-map')).toHaveTextContent('1 个点位');
    expect(screen.queryByTestId('amap-map')).not.toBeInTheDocument();
    expect(amapScripts()).toHaveLength(0);
  });

  it('draws the third-party map when that provider is chosen', async () => {
    render(<DeviceMap {...props} provider="amap" />);
    expect(await screen.findByTestId('amap-map')).toBeInTheDocument();
  });
});

/** A window whose document records the scripts added, none of which ever loads anything. */
function fakeWindow() {
  const scripts: Array<{ src: string; async: boolean; onload: (() => void) | null; onerror: (() => void) | null; removed: boolean; remove(): void }> = [];
  const target = {
    document: {
      createElement: () => {
        const script = { src: '', async: false, onload: null, onerror: null, removed: false, remove: () => (script.removed = true) };
        return script;
      },
      head: { appendChild: (script: (typeof scripts)[number]) => scripts.push(script) },
    },
  } as unknown as Window & { AMap?: AmapNamespace; _AMapSecurityConfig?: unknown };
  return { target, scripts };
}

describe('the AMap script loader', () => {
  it('builds the JS API 2.0 url with the key', () => {
    expect(amapScriptUrl('k/1')).toBe('https://webapi.amap.com/maps?v=2.0&key=k%2F1');
  });

  it('adds one script for any number of callers, sets the security code, and answers the AMap namespace', async () => {
    const { target, scripts } = fakeWindow();
    const first = loadAmap('key123', 'secret', target);
    const second = loadAmap('key123', 'secret', target);
    expect(scripts).toHaveLength(1);
    expect(scripts[0].src).toBe(amapScriptUrl('key123'));
    expect(scripts[0].async).toBe(true);
    expect(target._AMapSecurityConfig).toEqual({ securityJsCode: 'secret' });
    const namespace = { Map: vi.fn() } as unknown as AmapNamespace;
    target.AMap = namespace;
    scripts[0].onload?.();
    await expect(first).resolves.toBe(namespace);
    await expect(second).resolves.toBe(namespace);
    // Loaded: later callers get it without another script.
    await expect(loadAmap('key123', undefined, target)).resolves.toBe(namespace);
    expect(scripts).toHaveLength(1);
  });

  it('rejects when the script fails, removes it, and tries again on the next call', async () => {
    const { target, scripts } = fakeWindow();
    const attempt = loadAmap('key123', undefined, target);
    scripts[0].onerror?.();
    await expect(attempt).rejects.toThrow('高德地图脚本加载失败');
    expect(scripts[0].removed).toBe(true);
    expect(target._AMapSecurityConfig).toBeUndefined();
    const again = loadAmap('key123', undefined, target);
    expect(scripts).toHaveLength(2);
    scripts[1].onload?.();
    await expect(again).rejects.toThrow('高德地图脚本未提供 AMap');
  });
});
