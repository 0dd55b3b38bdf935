import type { ComponentType } from 'react';
import { lazyView } from '../../renderers/runtime/lazyView';
import { MAPS_CONFIG, mapViewProviderFor } from './config';
import type { MapViewProps, MapViewProviderName } from './types';

/** The map providers, each its own chunk: the third-party one is never loaded without a key. */
export const MAP_VIEWS: Record<MapViewProviderName, ComponentType<MapViewProps>> = {
  offline: lazyView(() => import('./OfflineMapView')),
  amap: lazyView(() => import('./AmapMapView')),
};

/** The device map of the configured provider (offline unless a maps key was configured). */
export function DeviceMap({ provider = mapViewProviderFor(MAPS_CONFIG), ...props }: MapViewProps & { provider?: MapViewProviderName }) {
  const View = MAP_VIEWS[provider];
  return <View {...props} />;
}
