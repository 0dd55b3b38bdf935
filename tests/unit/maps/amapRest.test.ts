// The server's AMap provider (web service REST): request building and response mapping, with an
// injected fetch — the network is never reached.
import { describe, expect, it } from 'vitest';
import { amapProvider, parseLocation, placesFromAmap, placeTextUrl, regeoUrl, reverseGeocodeFromAmap, type FetchLike } from '../../../server/domain/maps/amap';
import { MapProviderError } from '../../../server/domain/maps/provider';

const KEY = '0123456789abcdef0123456789abcdef';

function answering(body: unknown, status = 200): { fetch: FetchLike; urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    fetch: async (url) => {
      urls.push(url);
      return { ok: status >= 200 && status < 300, status, json: async () => body };
    },
  };
}

describe('AMap request building', () => {
  it('asks place/text with the key, the keywords, one page of 20 and the city limit', () => {
    const url = new URL(placeTextUrl(KEY, '西湖 断桥', '杭州'));
    expect(`${url.origin}${url.pathname}`).toBe('https://restapi.amap.com/v3/place/text');
    expect(Object.fromEntries(url.searchParams)).toEqual({ key: KEY, keywords: '西湖 断桥', offset: '20', page: '1', extensions: 'base', output: 'JSON', city: '杭州', citylimit: 'true' });
    expect(new URL(placeTextUrl(KEY, '西湖')).searchParams.has('city')).toBe(false);
  });

  it('asks geocode/regeo with "lng,lat" to six decimals', () => {
    const url = new URL(regeoUrl(KEY, 120.1, 30.25));
    expect(`${url.origin}${url.pathname}`).toBe('https://restapi.amap.com/v3/geocode/regeo');
    expect(url.searchParams.get('location')).toBe('120.100000,30.250000');
    expect(url.searchParams.get('extensions')).toBe('all');
    expect(url.searchParams.get('key')).toBe(KEY);
  });

  it('reads locations and refuses malformed ones', () => {
    expect(parseLocation('120.148,30.242')).toEqual({ longitude: 120.148, latitude: 30.242 });
    expect(parseLocation([])).toBeNull();
    expect(parseLocation('120.1')).toBeNull();
    expect(parseLocation('200,30')).toBeNull();
  });
});

describe('AMap response mapping', () => {
  it('maps POIs to places, reading [] as empty and leaving out entries without a location', () => {
    const places = placesFromAmap({
      status: '1',
      info: 'OK',
      pois: [
        { name: '西湖风景名胜区', type: '风景名胜;风景名胜;国家级景点', address: '龙井路1号', location: '120.148732,30.242289', pname: '浙江省', cityname: '杭州市', adname: '西湖区' },
        { name: '西湖区', type: '地名地址信息;普通地名;区县级地名', address: [], location: '120.130396,30.259242', pname: '浙江省', cityname: '杭州市', adname: '西湖区' },
        { name: '天安门', type: '风景名胜', address: '长安街', location: '116.397455,39.909187', pname: '北京市', cityname: '北京市', adname: '东城区' },
        { name: '坏数据', location: [] },
      ],
    });
    expect(places).toEqual([
      { name: '西湖风景名胜区', kind: 'poi', province: '浙江省', city: '杭州市', district: '西湖区', address: '浙江省杭州市西湖区龙井路1号', longitude: 120.148732, latitude: 30.242289 },
      { name: '西湖区', kind: 'district', province: '浙江省', city: '杭州市', district: '西湖区', address: '浙江省杭州市西湖区', longitude: 120.130396, latitude: 30.259242 },
      { name: '天安门', kind: 'poi', province: '北京市', city: '北京市', district: '东城区', address: '北京市东城区长安街', longitude: 116.397455, latitude: 39.909187 },
    ]);
  });

  it('maps a regeo answer, a municipality (city []) taking the province as its city', () => {
    const result = reverseGeocodeFromAmap(
      {
        status: '1',
        regeocode: {
          formatted_address: '上海市黄浦区南京东路街道南京东路',
          addressComponent: { province: '上海市', city: [], district: '黄浦区', township: '南京东路街道' },
          roads: [{ name: '南京东路', distance: '12.5' }],
          pois: [
            { name: '和平饭店', distance: '80' },
            { name: '', distance: '1' },
          ],
        },
      },
      121.49,
      31.24,
    );
    expect(result).toEqual({
      longitude: 121.49,
      latitude: 31.24,
      formattedAddress: '上海市黄浦区南京东路街道南京东路',
      province: '上海市',
      city: '上海市',
      district: '黄浦区',
      township: '南京东路街道',
      nearby: [
        { name: '南京东路', kind: 'road', distance: 13 },
        { name: '和平饭店', kind: 'poi', distance: 80 },
      ],
    });
  });

  it('turns an AMap error status into a MapProviderError naming it', () => {
    expect(() => placesFromAmap({ status: '0', info: 'INVALID_USER_KEY', infocode: '10001' })).toThrow(MapProviderError);
    expect(() => placesFromAmap({ status: '0', info: 'INVALID_USER_KEY', infocode: '10001' })).toThrow(/INVALID_USER_KEY（10001）/);
    expect(() => reverseGeocodeFromAmap({ status: '1' }, 120, 30)).toThrow(/缺少逆地理编码结果/);
  });
});

describe('the AMap provider with an injected fetch', () => {
  it('searches through the injected transport', async () => {
    const transport = answering({ status: '1', pois: [{ name: '雷峰塔', type: '风景名胜', address: '南山路15号', location: '120.148,30.231', pname: '浙江省', cityname: '杭州市', adname: '西湖区' }] });
    const provider = amapProvider({ key: KEY, fetch: transport.fetch });
    expect(provider.name).toBe('amap');
    const places = await provider.searchPlaces('雷峰塔', '杭州');
    expect(places.map((p) => p.name)).toEqual(['雷峰塔']);
    expect(transport.urls).toEqual([placeTextUrl(KEY, '雷峰塔', '杭州')]);
  });

  it('reverse-geocodes through the injected transport', async () => {
    const transport = answering({ status: '1', regeocode: { formatted_address: '浙江省杭州市西湖区', addressComponent: { province: '浙江省', city: '杭州市', district: '西湖区', township: [] } } });
    const result = await amapProvider({ key: KEY, fetch: transport.fetch, baseUrl: 'http://amap.test/v3' }).reverseGeocode(120.13, 30.26);
    expect(result).toMatchObject({ city: '杭州市', township: '', nearby: [] });
    expect(transport.urls[0]).toMatch(/^http:\/\/amap\.test\/v3\/geocode\/regeo\?/);
  });

  it('fails with a MapProviderError on an HTTP error or an unreachable service', async () => {
    await expect(amapProvider({ key: KEY, fetch: answering({}, 503).fetch }).searchPlaces('西湖')).rejects.toThrow(/HTTP 503/);
    const unreachable: FetchLike = async () => {
      throw new TypeError('fetch failed');
    };
    await expect(amapProvider({ key: KEY, fetch: unreachable }).reverseGeocode(120, 30)).rejects.toBeInstanceOf(MapProviderError);
  });
});
