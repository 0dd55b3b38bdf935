import { EnvironmentOutlined } from '@ant-design/icons';
import { Select, Spin, Typography } from 'antd';
import { useEffect, useState, type CSSProperties } from 'react';
import { useOperationQuery } from '../api/data';
import type { Place } from './types';

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
  const [picked, setPicked] = useState<string | null>(null);
  const keyword = placeKeyword(typed);
  // What was last searched: the keyword once the user paused typing. An empty box keeps it (and so
  // the last results), so the picked place still names itself.
  const [searched, setSearched] = useState('');
  useEffect(() => {
    if (!keyword) return;
    const timer = setTimeout(() => setSearched(keyword), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [keyword]);
  // A search that fails shows no places and no message (the box says 未找到地点); one replaced by
  // the next keyword is cancelled through TanStack's signal.
  const found = useOperationQuery('maps.place.search', city ? { keyword: searched, city } : { keyword: searched }, { enabled: searched !== '', handlesErrors: true, keepPrevious: true });
  const places: Place[] = found.error ? [] : (found.data ?? []);
  const loading = found.fetching || (keyword !== '' && keyword !== searched);

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
