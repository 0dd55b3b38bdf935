import type { MapViewProviderName } from './types';

/**
 * The console's maps configuration, fixed at build time: with VITE_MAPS_KEY (an AMap JS API key,
 * and VITE_MAPS_SECURITY_CODE when the key asks for one) the third-party map is used; without it
 * the offline map, which loads nothing from the network.
 */
export interface MapsClientConfig {
  key?: string;
  securityCode?: string;
}

const textOf = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

export function mapsConfigFrom(env: Record<string, unknown>): MapsClientConfig {
  return { key: textOf(env.VITE_MAPS_KEY), securityCode: textOf(env.VITE_MAPS_SECURITY_CODE) };
}

export const MAPS_CONFIG: MapsClientConfig = mapsConfigFrom(import.meta.env as Record<string, unknown>);

/** The provider a configuration selects: the third party only with a key. */
export function mapViewProviderFor(config: MapsClientConfig): MapViewProviderName {
  return config.key ? 'amap' : 'offline';
}
