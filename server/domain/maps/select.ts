import { amapProvider, type FetchLike } from './amap';
import { offlineMapProvider } from './offline';
import { withFallback, type MapProvider } from './provider';

export interface MapProviderDeps {
  /** The transport of the third-party provider (tests inject one; never the network there). */
  fetch?: FetchLike;
  /** Where a third-party failure is reported before the gazetteer answers instead. */
  log?: (message: string) => void;
}

/**
 * The provider for a server: AMap when a maps key is configured (MAPS_KEY), with the offline
 * gazetteer behind it for when AMap fails; the gazetteer alone otherwise.
 */
export function mapProviderFor(settings: { mapsKey?: string }, deps: MapProviderDeps = {}): MapProvider {
  const offline = offlineMapProvider();
  if (!settings.mapsKey) return offline;
  return withFallback(amapProvider({ key: settings.mapsKey, fetch: deps.fetch }), offline, deps.log ?? (() => undefined));
}
