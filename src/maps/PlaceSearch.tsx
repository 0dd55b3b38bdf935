import { EnvironmentOutlined } from '@ant-design/icons';
import { Select, Spin, Typography } from 'antd';
import { useEffect, useState, type CSSProperties } from 'react';
import { api } from '../api/client';
import type { Place } from './types';
import { expectedFailures } from '../../renderers/runtime/errorReporter';

const SEARCH_DELAY_MS = 300;
const KEYWORD_MAX = 60;

/** What may be sent as a place keyword: trimmed, bounded, no markup characters. */
export function placeKeyword(text: string): string {
  return text.replace(/[<>]/g, '').trim().slice(0, KEYWORD_MAX);
}

export interface PlaceSearchProps {
  /** A place was picked: the map centres on it. */
  onLocate: (place: Place) => void;
  /** Only places in this city. */
  city?: string;
  style?: CSSProperties;
}

/** The place search box: maps.place.search as the user types, a pick locates the place. */
export function PlaceSearch({ onLocate, city, style }: PlaceSearchProps) {
  const [typed, setTyped] = useState('');
  const [places, setPlaces] = useState<Place[]>([]);
  const [loading, setLoading] = useState(false);
  const [picked, setPicked] = useState<string | null>(null);
  const keyword = placeKeyword(typed);

  useEffect(() => {
    // An empty box keeps the last results, so the picked place still names itself.
    if (!keyword) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setLoading(true);
      api
        .call<Place[]>('maps.place.search', city ? { keyword, city } : { keyword }, { signal: controller.signal, silent: true })
        .then((found) => setPlaces(found ?? []))
        .catch((error: unknown) => {
          expectedFailures('地点搜索')(error);
          setPlaces([]);
        })
        .finally(() => setLoading(false));
    }, SEARCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [keyword, city]);

  return (
    <Select
      showSearch
      allowClear
      value={picked}
      placeholder="搜索地点（如 西湖、金鸡湖、灵隐路）"
      aria-label="搜索地点"
      data-testid="place-search"
      suffixIcon={<EnvironmentOutlined />}
      filterOption={false}
      searchValue={typed}
      onSearch={setTyped}
      onClear={() => setPicked(null)}
      notFoundContent={loading ? <Spin size="small" /> : keyword ? '未找到地点' : null}
      style={{ width: 320, ...style }}
      options={places.map((place, index) => ({
        value: String(index),
        label: place.name,
        title: place.address,
        place,
      }))}
      optionRender={(option) => {
        const place = (option.data as { place: Place }).place;
        return (
          <div>
            <div>{place.name}</div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {place.address}
            </Typography.Text>
          </div>
        );
      }}
      onChange={(value: string | null) => {
        setPicked(value);
        const place = value === null ? undefined : places[Number(value)];
        if (place) {
          setTyped('');
          onLocate(place);
        }
      }}
    />
  );
}
