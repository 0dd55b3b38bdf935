import {
  MapProviderError,
  PLACE_SEARCH_LIMIT,
  regionText,
  type MapProvider,
  type NearbyPlace,
  type Place,
  type PlaceKind,
  type ReverseGeocode,
} from './provider';

/**
 * AMap (高德) web service REST API: place/text for the search, geocode/regeo for reverse
 * geocoding. Used only when a key is configured; `fetch` is injected so that tests never reach
 * the network.
 */
export const AMAP_REST_BASE = 'https://restapi.amap.com/v3';
const TIMEOUT_MS = 5000;
const REGEO_RADIUS_METRES = 1000;

/** The part of the WHATWG fetch this provider uses. */
export type FetchLike = (url: string, init?: { signal?: AbortSignal }) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

export interface AmapOptions {
  key: string;
  fetch?: FetchLike;
  baseUrl?: string;
}

/** AMap answers an empty field as [] rather than "": both read as "". */
type AmapText = string | unknown[] | undefined;
const textOf = (value: AmapText): string => (typeof value === 'string' ? value : '');

interface AmapPoi {
  name?: AmapText;
  type?: AmapText;
  typecode?: AmapText;
  address?: AmapText;
  location?: AmapText;
  pname?: AmapText;
  cityname?: AmapText;
  adname?: AmapText;
  distance?: AmapText;
}

interface AmapAnswer {
  status?: string;
  info?: string;
  infocode?: string;
}

interface PlaceTextAnswer extends AmapAnswer {
  pois?: AmapPoi[];
}

interface RegeoAnswer extends AmapAnswer {
  regeocode?: {
    formatted_address?: AmapText;
    addressComponent?: {
      province?: AmapText;
      city?: AmapText;
      district?: AmapText;
      township?: AmapText;
      streetNumber?: { street?: AmapText; number?: AmapText; distance?: AmapText };
    };
    pois?: AmapPoi[];
    roads?: Array<{ name?: AmapText; distance?: AmapText }>;
  };
}

/** The request URL of a place text search (keywords, optional city limit, one page). */
export function placeTextUrl(key: string, text: string, city?: string, baseUrl = AMAP_REST_BASE): string {
  const query = new URLSearchParams({ key, keywords: text, offset: String(PLACE_SEARCH_LIMIT), page: '1', extensions: 'base', output: 'JSON' });
  if (city) {
    query.set('city', city);
    query.set('citylimit', 'true');
  }
  return `${baseUrl}/place/text?${query.toString()}`;
}

/** The request URL of a reverse geocode (location is "lng,lat", six decimals). */
export function regeoUrl(key: string, longitude: number, latitude: number, baseUrl = AMAP_REST_BASE): string {
  const query = new URLSearchParams({
    key,
    location: `${longitude.toFixed(6)},${latitude.toFixed(6)}`,
    radius: String(REGEO_RADIUS_METRES),
    extensions: 'all',
    output: 'JSON',
  });
  return `${baseUrl}/geocode/regeo?${query.toString()}`;
}

/** "120.148,30.242" → coordinates, null when malformed. */
export function parseLocation(location: AmapText): { longitude: number; latitude: number } | null {
  const match = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(textOf(location));
  if (!match) return null;
  const longitude = Number(match[1]);
  const latitude = Number(match[2]);
  if (Math.abs(longitude) > 180 || Math.abs(latitude) > 90) return null;
  return { longitude, latitude };
}

/** AMap's type text ("风景名胜;公园广场;公园") → the place kinds of the gazetteer. */
function kindOf(poi: AmapPoi): PlaceKind {
  const type = textOf(poi.type);
  if (type.startsWith('地名地址信息;普通地名;省级地名')) return 'province';
  if (type.startsWith('地名地址信息;普通地名;地市级地名')) return 'city';
  if (type.startsWith('地名地址信息;普通地名;区县级地名')) return 'district';
  if (type.startsWith('地名地址信息;普通地名;乡镇级地名')) return 'town';
  if (type.startsWith('地名地址信息;交通地名;道路名')) return 'road';
  return 'poi';
}

function checked<T extends AmapAnswer>(answer: T): T {
  if (answer.status !== '1') throw new MapProviderError(`高德地图服务错误：${answer.info ?? '未知错误'}（${answer.infocode ?? '-'}）`);
  return answer;
}

/** The places of a place/text answer (entries without a usable location are left out). */
export function placesFromAmap(answer: PlaceTextAnswer): Place[] {
  const places: Place[] = [];
  for (const poi of checked(answer).pois ?? []) {
    const location = parseLocation(poi.location);
    const name = textOf(poi.name);
    if (!location || !name) continue;
    const province = textOf(poi.pname);
    const city = textOf(poi.cityname);
    const district = textOf(poi.adname);
    const kind = kindOf(poi);
    const region = regionText(province, city, district);
    const isRegion = kind === 'province' || kind === 'city' || kind === 'district';
    places.push({ name, kind, province, city, district, address: isRegion ? region : `${region}${textOf(poi.address) || name}`, ...location });
  }
  return places;
}

const metres = (value: AmapText): number => {
  const number = Number(textOf(value));
  return Number.isFinite(number) ? Math.round(number) : 0;
};

/** The reverse geocode of a geocode/regeo answer. */
export function reverseGeocodeFromAmap(answer: RegeoAnswer, longitude: number, latitude: number): ReverseGeocode {
  const regeocode = checked(answer).regeocode;
  if (!regeocode) throw new MapProviderError('高德地图服务错误：缺少逆地理编码结果');
  const component = regeocode.addressComponent ?? {};
  const province = textOf(component.province);
  // Municipalities (北京市, 上海市…) answer city as []: the province is the city.
  const city = textOf(component.city) || province;
  const nearby: NearbyPlace[] = [
    ...(regeocode.roads ?? []).map((road) => ({ name: textOf(road.name), kind: 'road' as const, distance: metres(road.distance) })),
    ...(regeocode.pois ?? []).map((poi) => ({ name: textOf(poi.name), kind: 'poi' as const, distance: metres(poi.distance) })),
  ]
    .filter((place) => place.name !== '')
    .sort((a, b) => a.distance - b.distance)
    .slice(0, 5);
  return {
    longitude,
    latitude,
    formattedAddress: textOf(regeocode.formatted_address),
    province,
    city,
    district: textOf(component.district),
    township: textOf(component.township),
    nearby,
  };
}

export function amapProvider({ key, fetch: fetchImpl = globalThis.fetch as FetchLike, baseUrl = AMAP_REST_BASE }: AmapOptions): MapProvider {
  async function get<T>(url: string): Promise<T> {
    let response: Awaited<ReturnType<FetchLike>>;
    try {
      response = await fetchImpl(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (error) {
      throw new MapProviderError(`高德地图服务不可达：${error instanceof Error ? error.message : String(error)}`);
    }
    if (!response.ok) throw new MapProviderError(`高德地图服务应答 HTTP ${response.status}`);
    return (await response.json()) as T;
  }
  return {
    name: 'amap',
    searchPlaces: async (text, city) => placesFromAmap(await get<PlaceTextAnswer>(placeTextUrl(key, text, city, baseUrl))),
    reverseGeocode: async (longitude, latitude) => reverseGeocodeFromAmap(await get<RegeoAnswer>(regeoUrl(key, longitude, latitude, baseUrl)), longitude, latitude),
  };
}
