import { readFileSync } from 'node:fs';
import {
  distanceMetres,
  PLACE_KINDS,
  PLACE_SEARCH_LIMIT,
  regionText,
  type MapProvider,
  type NearbyPlace,
  type Place,
  type PlaceKind,
  type ReverseGeocode,
} from './provider';

/** One entry of gazetteer.json. */
interface GazetteerEntry {
  name: string;
  kind: PlaceKind;
  province: string;
  city?: string;
  district?: string;
  longitude: number;
  latitude: number;
}

const GAZETTEER_FILE = new URL('./gazetteer.json', import.meta.url);

/** The places of the bundled gazetteer, with their full addresses. */
export function loadGazetteer(file: URL | string = GAZETTEER_FILE): Place[] {
  const { places } = JSON.parse(readFileSync(file, 'utf8')) as { places: GazetteerEntry[] };
  return places.map((entry) => {
    const city = entry.city ?? '';
    const district = entry.district ?? '';
    const region = regionText(entry.province, city, district);
    const isRegion = entry.kind === 'province' || entry.kind === 'city' || entry.kind === 'district';
    return {
      name: entry.name,
      kind: entry.kind,
      province: entry.province,
      city,
      district,
      address: isRegion ? region : `${region}${entry.name}`,
      longitude: entry.longitude,
      latitude: entry.latitude,
    };
  });
}

let bundled: Place[] | null = null;
function bundledGazetteer(): Place[] {
  bundled ??= loadGazetteer();
  return bundled;
}

/** 浙江省 → 浙江, 杭州市 → 杭州, 西湖区 → 西湖: how people write places in a search box. */
const ADMINISTRATIVE_SUFFIX = /(特别行政区|维吾尔自治区|壮族自治区|回族自治区|自治区|省|市|区|县)$/;
const shortName = (name: string) => (name.length > 2 ? name.replace(ADMINISTRATIVE_SUFFIX, '') : name);

/**
 * The texts a place answers to: its name, its full address, the address in short names, and the
 * name after any one of its regions (苏州金鸡湖, 西湖区灵隐寺).
 */
function searchTexts(place: Place): string[] {
  const regions = [place.province, place.city === place.province ? '' : place.city, place.district].filter(Boolean);
  const short = regions.map(shortName);
  const prefixed = regions.flatMap((region, index) => [`${region}${place.name}`, `${short[index]}${place.name}`]);
  return [place.name, place.address, `${short.join('')}${place.name}`, ...prefixed].map((text) => text.toLowerCase());
}

const normalise = (text: string) => text.trim().toLowerCase().replace(/\s+/g, ' ');

/** Lower is better: exact name, name prefix, name part, then address match. */
function rank(place: Place, words: string[]): number | null {
  const [name, ...addresses] = searchTexts(place);
  const phrase = words.join('');
  if (name === phrase) return 0;
  if (name.startsWith(phrase)) return 1;
  if (name.includes(phrase)) return 2;
  if (addresses.some((address) => words.every((word) => address.includes(word)))) return 3;
  return null;
}

function inCity(place: Place, city: string): boolean {
  const wanted = shortName(normalise(city));
  return [place.city, place.province, place.district].some((region) => region !== '' && shortName(region.toLowerCase()) === wanted);
}

/** The gazetteer search: matching places, best first. */
export function searchGazetteer(places: readonly Place[], text: string, city?: string): Place[] {
  const words = normalise(text).split(' ').filter(Boolean);
  if (words.length === 0) return [];
  const wantedCity = city && city.trim() !== '' ? city : undefined;
  return places
    .filter((place) => !wantedCity || inCity(place, wantedCity))
    .map((place) => ({ place, score: rank(place, words) }))
    .filter((hit): hit is { place: Place; score: number } => hit.score !== null)
    .sort(
      (a, b) =>
        a.score - b.score ||
        a.place.name.length - b.place.name.length ||
        PLACE_KINDS.indexOf(a.place.kind) - PLACE_KINDS.indexOf(b.place.kind) ||
        a.place.name.localeCompare(b.place.name, 'zh-CN'),
    )
    .slice(0, PLACE_SEARCH_LIMIT)
    .map(({ place }) => place);
}

/** How far a region's centre may be for a point to be said to lie in it. */
const DISTRICT_REACH_METRES = 40_000;
const CITY_REACH_METRES = 80_000;
const TOWN_REACH_METRES = 6_000;
const NEARBY_REACH_METRES = 3_000;
const NEARBY_COUNT = 5;

function nearest(places: readonly Place[], point: { longitude: number; latitude: number }, kinds: readonly PlaceKind[]): { place: Place; distance: number } | null {
  let best: { place: Place; distance: number } | null = null;
  for (const place of places) {
    if (!kinds.includes(place.kind)) continue;
    const distance = distanceMetres(point, place);
    if (!best || distance < best.distance) best = { place, distance };
  }
  return best;
}

/**
 * Reverse geocoding by distance: the district (or city, or province) whose centre is nearest, the
 * nearest town, and the streets and landmarks within a few kilometres.
 */
export function reverseGeocodeGazetteer(places: readonly Place[], longitude: number, latitude: number): ReverseGeocode {
  const point = { longitude, latitude };
  const district = nearest(places, point, ['district']);
  const city = nearest(places, point, ['city']);
  const province = nearest(places, point, ['province']);
  let region = { province: '', city: '', district: '' };
  if (district && district.distance <= DISTRICT_REACH_METRES) region = district.place;
  else if (city && city.distance <= CITY_REACH_METRES) region = { ...city.place, district: '' };
  else if (province) region = { province: province.place.province, city: '', district: '' };

  const local = places.filter((place) => !region.city || place.city === region.city);
  const town = nearest(local, point, ['town']);
  const township = town && town.distance <= TOWN_REACH_METRES ? town.place.name : '';
  const nearby: NearbyPlace[] = local
    .filter((place) => place.kind === 'road' || place.kind === 'poi' || place.kind === 'town')
    .map((place) => ({ name: place.name, kind: place.kind, distance: Math.round(distanceMetres(point, place)) }))
    .filter((place) => place.distance <= NEARBY_REACH_METRES)
    .sort((a, b) => a.distance - b.distance)
    .slice(0, NEARBY_COUNT);
  const landmark = nearby.find((place) => place.kind !== 'town');
  const formattedAddress = `${regionText(region.province, region.city, region.district)}${township}${landmark ? `${landmark.name}附近` : ''}`;
  return { longitude, latitude, formattedAddress, province: region.province, city: region.city, district: region.district, township, nearby };
}

/** The default provider: the bundled gazetteer, no network. */
export function offlineMapProvider(places: readonly Place[] = bundledGazetteer()): MapProvider {
  return {
    name: 'offline',
    searchPlaces: async (text, city) => searchGazetteer(places, text, city),
    reverseGeocode: async (longitude, latitude) => reverseGeocodeGazetteer(places, longitude, latitude),
  };
}
