/**
 * Place search and reverse geocoding (SPEC §7 "Maps"): one small interface with two providers,
 * the offline gazetteer (the default, no network) and AMap's web service REST API, used only when
 * a key is configured (MAPS_KEY). A failing third-party call falls back to the gazetteer.
 */

/** What a place is, broadest first. */
export type PlaceKind = 'province' | 'city' | 'district' | 'town' | 'road' | 'poi';

export const PLACE_KINDS: readonly PlaceKind[] = ['province', 'city', 'district', 'town', 'road', 'poi'];

export interface Place {
  name: string;
  kind: PlaceKind;
  province: string;
  /** Empty for a province. */
  city: string;
  /** Empty for a province or a city. */
  district: string;
  /** The full written address (省市区 + name or street). */
  address: string;
  longitude: number;
  latitude: number;
}

/** A place near a reverse-geocoded point, with its distance in metres. */
export interface NearbyPlace {
  name: string;
  kind: PlaceKind;
  distance: number;
}

export interface ReverseGeocode {
  longitude: number;
  latitude: number;
  /** 浙江省杭州市西湖区灵隐街道灵隐路附近 */
  formattedAddress: string;
  province: string;
  city: string;
  district: string;
  township: string;
  nearby: NearbyPlace[];
}

export type MapProviderName = 'offline' | 'amap';

export interface MapProvider {
  readonly name: MapProviderName;
  /** Places whose name or address matches `text`, best first; only within `city` when given. */
  searchPlaces(text: string, city?: string): Promise<Place[]>;
  reverseGeocode(longitude: number, latitude: number): Promise<ReverseGeocode>;
}

/** The most places a search answers. */
export const PLACE_SEARCH_LIMIT = 20;

/** A third-party map service that did not answer usefully (network, quota, bad key). */
export class MapProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MapProviderError';
  }
}

/**
 * `primary`, falling back to `fallback` when it fails (the reason goes to `onFailure`, the
 * operator's log): a console never loses its place search because the maps quota ran out.
 */
export function withFallback(primary: MapProvider, fallback: MapProvider, onFailure: (reason: string) => void): MapProvider {
  async function attempt<T>(work: (provider: MapProvider) => Promise<T>): Promise<T> {
    try {
      return await work(primary);
    } catch (error) {
      onFailure(`${primary.name} 地图服务失败，改用${fallback.name}：${error instanceof Error ? error.message : String(error)}`);
      return work(fallback);
    }
  }
  return {
    name: primary.name,
    searchPlaces: (text, city) => attempt((provider) => provider.searchPlaces(text, city)),
    reverseGeocode: (longitude, latitude) => attempt((provider) => provider.reverseGeocode(longitude, latitude)),
  };
}

const EARTH_RADIUS_METRES = 6_371_008.8;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance in metres (haversine). */
export function distanceMetres(a: { longitude: number; latitude: number }, b: { longitude: number; latitude: number }): number {
  const dLat = radians(b.latitude - a.latitude);
  const dLng = radians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_METRES * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** 省市区 joined, the city left out where it repeats the province (直辖市). */
export function regionText(province: string, city: string, district: string): string {
  return [province, city === province ? '' : city, district].join('');
}
