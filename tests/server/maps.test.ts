// Maps (SPEC §7 "Maps"): place search and reverse geocoding (kind `get`, the query string is the
// param) from the offline gazetteer or, with a key, from AMap (never reached here: its fetch is
// injected), and 设备分布 — the scoped devices as map points.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '../../server/http/envelope';
import { amapProvider, type FetchLike } from '../../server/domain/maps/amap';
import { loadGazetteer, offlineMapProvider } from '../../server/domain/maps/offline';
import { distanceMetres, withFallback, type Place, type ReverseGeocode } from '../../server/domain/maps/provider';
import { mapProviderFor } from '../../server/domain/maps/select';
import { configFromEnv } from '../../server/config';
import { OPERATIONS } from '../../server/operations/index';
import { mapOperations } from '../../server/operations/maps';
import type { DevicePoint } from '../../server/operations/devices/distribution';
import { catalogue, startServer, type TestServer } from './harness';

let server: TestServer;
let tadmin: string;
let badmin: string;
let admin: string;

beforeAll(async () => {
  server = await startServer();
  [tadmin, badmin, admin] = await Promise.all([server.login('tadmin'), server.login('badmin'), server.login('admin', 'Admin@2026')]);
});
afterAll(() => server.close());

/** A `get` operation as the console sends it: the param as the query string. */
async function get<T>(target: TestServer, name: string, query: Record<string, string>, token?: string): Promise<Envelope<T>> {
  const entry = catalogue[name];
  expect(entry.kind).toBe('get');
  const response = await target.app.inject({ method: 'GET', url: `/api${entry.path}?${new URLSearchParams(query).toString()}`, headers: token ? { token } : {} });
  expect(response.statusCode).toBe(200);
  return response.json<Envelope<T>>();
}

describe('the offline gazetteer', () => {
  const places = loadGazetteer();

  it('holds the provinces, the districts of 杭州 and 苏州 and a few hundred streets and landmarks, every one inside China', () => {
    expect(places.filter((p) => p.kind === 'province')).toHaveLength(34);
    const districts = (city: string) => places.filter((p) => p.kind === 'district' && p.city === city).map((p) => p.name);
    expect(districts('杭州市')).toEqual(expect.arrayContaining(['上城区', '拱墅区', '西湖区', '滨江区', '萧山区', '余杭区', '临平区', '钱塘区', '富阳区', '临安区']));
    expect(districts('苏州市')).toEqual(expect.arrayContaining(['姑苏区', '虎丘区', '吴中区', '相城区', '吴江区', '苏州工业园区']));
    expect(places.filter((p) => ['town', 'road', 'poi'].includes(p.kind)).length).toBeGreaterThan(300);
    for (const place of places) {
      expect(place.longitude, place.name).toBeGreaterThan(73);
      expect(place.longitude, place.name).toBeLessThan(136);
      expect(place.latitude, place.name).toBeGreaterThan(18);
      expect(place.latitude, place.name).toBeLessThan(54);
    }
  });

  it('names every street of the seeded device addresses', () => {
    for (const street of ['灵隐路', '龙井路', '湖滨路', '下沙路', '江东大道', '莫干山路', '江南大道', '东山大道', '光福镇', '阳澄湖大道', '星海街', '金鸡湖大道', '人民路']) {
      expect(places.some((p) => p.name === street), street).toBe(true);
    }
  });

  it('searches by name, by address and by short names, best match first, within a city when asked', async () => {
    const provider = offlineMapProvider(places);
    const lake = await provider.searchPlaces('西湖风景名胜区');
    expect(lake[0]).toMatchObject({ name: '西湖风景名胜区', kind: 'poi', province: '浙江省', city: '杭州市', district: '西湖区', address: '浙江省杭州市西湖区西湖风景名胜区' });
    const lingyin = await provider.searchPlaces('杭州 灵隐');
    expect(lingyin.map((p) => p.name)).toEqual(expect.arrayContaining(['灵隐寺', '灵隐路', '灵隐街道']));
    expect(lingyin.every((p) => p.city === '杭州市')).toBe(true);
    expect((await provider.searchPlaces('苏州金鸡湖')).map((p) => p.name)).toContain('金鸡湖');
    const peopleRoads = await provider.searchPlaces('人民路', '苏州');
    expect(peopleRoads.length).toBeGreaterThan(0);
    expect(peopleRoads.every((p) => p.city === '苏州市')).toBe(true);
    expect(await provider.searchPlaces('金鸡湖', '杭州')).toEqual([]);
    expect(await provider.searchPlaces('不存在的地名')).toEqual([]);
    expect((await provider.searchPlaces('路')).length).toBe(20);
  });

  it('reverse-geocodes by distance to the nearest district, town and landmarks', async () => {
    const provider = offlineMapProvider(places);
    const lingyin = await provider.reverseGeocode(120.1016, 30.2412);
    expect(lingyin).toMatchObject({ province: '浙江省', city: '杭州市', district: '西湖区' });
    expect(lingyin.nearby[0]).toEqual({ name: '灵隐寺', kind: 'poi', distance: 0 });
    expect(lingyin.formattedAddress).toMatch(/^浙江省杭州市西湖区.*灵隐寺附近$/);
    const jinji = await provider.reverseGeocode(120.706, 31.3148);
    expect(jinji).toMatchObject({ province: '江苏省', city: '苏州市', district: '苏州工业园区' });
    expect(jinji.nearby.map((p) => p.name)).toContain('金鸡湖');
    // Far from both cities: only the city (or province) is known, with no invented street.
    const beijing = await provider.reverseGeocode(116.40, 39.91);
    expect(beijing).toMatchObject({ province: '北京市', city: '北京市', district: '', nearby: [] });
    expect(beijing.formattedAddress).toBe('北京市');
  });

  it('measures distance on the sphere', () => {
    expect(Math.round(distanceMetres({ longitude: 120.155, latitude: 30.274 }, { longitude: 120.585, latitude: 31.299 }) / 1000)).toBe(121);
  });
});

describe('provider selection and fallback', () => {
  const noNetwork: FetchLike = async () => {
    throw new Error('network is not available in tests');
  };

  it('uses the gazetteer without a key and AMap with one (MAPS_KEY)', () => {
    expect(mapProviderFor({}).name).toBe('offline');
    expect(mapProviderFor(configFromEnv({})).name).toBe('offline');
    expect(mapProviderFor(configFromEnv({ MAPS_KEY: '0123456789abcdef0123456789abcdef' }), { fetch: noNetwork }).name).toBe('amap');
    expect(() => configFromEnv({ MAPS_KEY: 'bad key!' })).toThrow(/MAPS_KEY/);
  });

  it('answers from the gazetteer when AMap fails, and says so in the log', async () => {
    const log: string[] = [];
    const provider = mapProviderFor({ mapsKey: '0123456789abcdef0123456789abcdef' }, { fetch: noNetwork, log: (line) => log.push(line) });
    expect((await provider.searchPlaces('雷峰塔'))[0].name).toBe('雷峰塔');
    expect(log[0]).toMatch(/amap 地图服务失败，改用offline：高德地图服务不可达/);
  });

  it('passes a working primary through untouched', async () => {
    const primary = offlineMapProvider([]);
    const provider = withFallback(primary, offlineMapProvider(), () => {
      throw new Error('no fallback expected');
    });
    expect(await provider.searchPlaces('雷峰塔')).toEqual([]);
  });
});

describe('maps.place.search and maps.geocode.reverse', () => {
  it('answers places for a signed-in user', async () => {
    const reply = await get<Place[]>(server, 'maps.place.search', { keyword: '雷峰塔' }, tadmin);
    expect(reply.code).toBe('200');
    expect(reply.data![0]).toMatchObject({ name: '雷峰塔', city: '杭州市', longitude: 120.1488, latitude: 30.2313 });
    const inCity = await get<Place[]>(server, 'maps.place.search', { keyword: '星海', city: '苏州市' }, badmin);
    expect(inCity.data!.map((p) => p.name)).toEqual(expect.arrayContaining(['星海街', '星海广场地铁站']));
  });

  it('reverse-geocodes a point', async () => {
    const reply = await get<ReverseGeocode>(server, 'maps.geocode.reverse', { longitude: '120.1488', latitude: '30.2313' }, tadmin);
    expect(reply.code).toBe('200');
    expect(reply.data).toMatchObject({ longitude: 120.1488, latitude: 30.2313, province: '浙江省', city: '杭州市', district: '西湖区' });
    expect(reply.data!.nearby[0].name).toBe('雷峰塔');
  });

  it('asks for a session ("301")', async () => {
    expect((await get(server, 'maps.place.search', { keyword: '西湖' })).code).toBe('301');
    expect((await get(server, 'maps.geocode.reverse', { longitude: '120', latitude: '30' })).code).toBe('301');
  });

  it.each([
    ['maps.place.search', {}, 'keyword'],
    ['maps.place.search', { keyword: '' }, 'keyword'],
    ['maps.place.search', { keyword: '   ' }, 'keyword'],
    ['maps.place.search', { keyword: '<script>' }, 'keyword'],
    ['maps.place.search', { keyword: '西'.repeat(61) }, 'keyword'],
    ['maps.place.search', { keyword: '西湖', extra: '1' }, 'extra'],
    ['maps.geocode.reverse', { longitude: '120' }, 'latitude'],
    ['maps.geocode.reverse', { longitude: 'east', latitude: '30' }, 'longitude'],
    ['maps.geocode.reverse', { longitude: '181', latitude: '30' }, 'longitude'],
    ['maps.geocode.reverse', { longitude: '120', latitude: '-90.5' }, 'latitude'],
    ['maps.geocode.reverse', { longitude: '120;DROP', latitude: '30' }, 'longitude'],
  ])('%s refuses %j ("400")', async (name, query, field) => {
    const reply = await get(server, name, query as Record<string, string>, tadmin);
    expect(reply.code).toBe('400');
    expect(reply.message).toContain(field);
  });

  it('asks AMap when a provider with a key is configured, and maps its answer', async () => {
    const requested: string[] = [];
    const fetchAmap: FetchLike = async (url) => {
      requested.push(url);
      return {
        ok: true,
        status: 200,
        json: async () => ({
          status: '1',
          info: 'OK',
          pois: [{ name: '杭州东站', type: '交通设施服务;火车站;火车站', address: '天城路1号', location: '120.212600,30.290800', pname: '浙江省', cityname: '杭州市', adname: '上城区' }],
        }),
      };
    };
    const withAmap = await startServer({
      operations: [...OPERATIONS.filter((op) => !op.name.startsWith('maps.')), ...mapOperations(() => amapProvider({ key: 'k3y0123456789', fetch: fetchAmap }))],
    });
    try {
      const token = await withAmap.login('tadmin');
      const reply = await get<Place[]>(withAmap, 'maps.place.search', { keyword: '东站', city: '杭州' }, token);
      expect(reply.data).toEqual([{ name: '杭州东站', kind: 'poi', province: '浙江省', city: '杭州市', district: '上城区', address: '浙江省杭州市上城区天城路1号', longitude: 120.2126, latitude: 30.2908 }]);
      expect(requested).toHaveLength(1);
      expect(requested[0]).toMatch(/^https:\/\/restapi\.amap\.com\/v3\/place\/text\?/);
    } finally {
      await withAmap.close();
    }
  });
});

describe('device.distribution.list', () => {
  async function points(token: string, param: unknown = {}, orgCode?: string): Promise<DevicePoint[]> {
    const reply = await server.call<DevicePoint[]>('device.distribution.list', param, { token, orgCode });
    expect(reply.code, reply.message).toBe('200');
    return reply.data!;
  }

  async function liveCount(where: string, params: unknown[]): Promise<number> {
    const [row] = await server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM device WHERE deleted_at IS NULL AND longitude IS NOT NULL AND ${where}`,
      params as never[],
    );
    return row.n;
  }

  it('answers every live located device of the tenant as a compact point', async () => {
    const all = await points(tadmin);
    expect(all.length).toBe(await liveCount(`tenant_code = 'T0001'`, []));
    expect(all.length).toBeGreaterThan(5000);
    expect(Object.keys(all[0]).sort()).toEqual(['address', 'code', 'healthState', 'latitude', 'longitude', 'name', 'onlineState', 'productName'].sort());
    expect(all.every((p) => /^[A-Z0-9]{12}$/.test(p.code) && p.code.slice(4, 6) === '01')).toBe(true);
    const sample = all.find((p) => p.code.startsWith('WMNB'))!;
    expect(sample.productName).toBe('NB-IoT 智能水表');
    expect(sample.longitude).toBeGreaterThan(119.9);
    expect(sample.latitude).toBeLessThan(30.5);
    expect(sample.address).toMatch(/^浙江省杭州市/);
    // Compact: about 10k points stay well under the body size of a plain page of JSON per point.
    expect(JSON.stringify(all).length / all.length).toBeLessThan(220);
  });

  it('never shows badmin a T0001 point, nor tadmin a T0002 one', async () => {
    const theirs = await points(badmin);
    expect(theirs.length).toBe(await liveCount(`tenant_code = 'T0002'`, []));
    expect(theirs.some((p) => p.address.startsWith('浙江省'))).toBe(false);
    const [tadminDevice] = await server.db.query<{ code: string }>(`SELECT code FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL LIMIT 1`);
    expect(theirs.some((p) => p.code === tadminDevice.code)).toBe(false);
    expect(await points(badmin, { keyword: tadminDevice.code })).toEqual([]);
    expect((await points(tadmin)).some((p) => p.address.startsWith('江苏省'))).toBe(false);
    // An organisation of another tenant in the header is refused, not widened.
    const reply = await server.call('device.distribution.list', {}, { token: badmin, orgCode: 'T0001' });
    expect(reply.code).toBe('403');
  });

  it('narrows to the selected organisation and its descendants', async () => {
    const area = await points(tadmin, {}, 'T0001P01A01');
    const expected = await server.db.query<{ code: string }>(
      `SELECT code FROM device WHERE organization_code LIKE 'T0001P01A01%' AND deleted_at IS NULL AND longitude IS NOT NULL ORDER BY code`,
    );
    expect(area.map((p) => p.code)).toEqual(expected.map((row) => row.code));
    expect(area.length).toBeGreaterThan(0);
  });

  it('platform staff at the root see both tenants', async () => {
    const all = await points(admin);
    expect(all.length).toBe(await liveCount('true', []));
  });

  it('filters by keyword, online state, health state, product and bounding box', async () => {
    const online = await points(tadmin, { onlineState: 'online' });
    expect(online.length).toBe(await liveCount(`tenant_code = 'T0001' AND online_state = 'online'`, []));
    expect(online.every((p) => p.onlineState === 'online')).toBe(true);
    const faulty = await points(tadmin, { healthState: 'faulty' });
    expect(faulty.every((p) => p.healthState === 'faulty')).toBe(true);
    const gateways = await points(tadmin, { productCode: 'PRD-GW-4G' });
    expect(gateways.length).toBe(await liveCount(`tenant_code = 'T0001' AND product_code = 'PRD-GW-4G'`, []));
    expect(gateways.every((p) => p.productName === '边缘计算网关')).toBe(true);
    const byName = await points(tadmin, { keyword: '边缘网关' });
    expect(byName.map((p) => p.code).sort()).toEqual(gateways.map((p) => p.code).sort());
    const byStreet = await points(tadmin, { keyword: '灵隐路' });
    expect(byStreet.length).toBeGreaterThan(0);
    expect(byStreet.every((p) => p.address.includes('灵隐路'))).toBe(true);
    const box = { west: 120.1, south: 30.2, east: 120.2, north: 30.3 };
    const inBox = await points(tadmin, { bounds: box });
    expect(inBox.length).toBe(await liveCount(`tenant_code = 'T0001' AND longitude BETWEEN $1 AND $2 AND latitude BETWEEN $3 AND $4`, [box.west, box.east, box.south, box.north]));
    expect(inBox.every((p) => p.longitude >= box.west && p.longitude <= box.east && p.latitude >= box.south && p.latitude <= box.north)).toBe(true);
    // Wildcards in the keyword are text, not patterns.
    expect(await points(tadmin, { keyword: '%' })).toEqual([]);
  });

  it('leaves out devices in the recycle bin', async () => {
    const [recycled] = await server.db.query<{ code: string }>(`SELECT code FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NOT NULL LIMIT 1`);
    expect(recycled).toBeDefined();
    expect((await points(tadmin)).some((p) => p.code === recycled.code)).toBe(false);
  });

  it.each([
    [{ onlineState: 'sleeping' }, 'onlineState'],
    [{ healthState: 'ok' }, 'healthState'],
    [{ keyword: 'a'.repeat(65) }, 'keyword'],
    [{ keyword: '<b>' }, 'keyword'],
    [{ productCode: "x' OR 1=1" }, 'productCode'],
    [{ bounds: { west: 120, south: 30 } }, 'bounds.east'],
    [{ bounds: { west: 200, south: 30, east: 121, north: 31 } }, 'bounds.west'],
    [{ bounds: { west: 121, south: 30, east: 120, north: 31 } }, 'bounds'],
    [{ bounds: { west: '120', south: 30, east: 121, north: 31 } }, 'bounds.west'],
    [{ page: 1 }, 'page'],
  ])('refuses %j ("400")', async (param, field) => {
    const reply = await server.call('device.distribution.list', param, { token: tadmin });
    expect(reply.code).toBe('400');
    expect(reply.message).toContain(field);
  });

  it('asks for a session ("301")', async () => {
    expect((await server.call('device.distribution.list', {})).code).toBe('301');
  });
});
