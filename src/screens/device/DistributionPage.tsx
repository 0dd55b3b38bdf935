import { ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, Input, Row, Select, Space, Spin, Statistic } from 'antd';
import { useAtomValue } from 'jotai';
import { useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useLastAnswer, useOperationQuery } from '../../api/data';
import type { ParamOf } from '../../api/typed';
import { DeviceMap } from '../../maps/DeviceMap';
import { PlaceSearch } from '../../maps/PlaceSearch';
import { FOCUS_SPAN, ONLINE_STATES, type DevicePoint, type MapFocus, type Place } from '../../maps/types';
import { dictionaryLabel } from '../../session/dictionary';
import { sessionAtom } from '../../session/session';
import type { ScreenProps } from '../registry';

/**
 * The counts above the map in a darker shade of each state's map colour (maps/types ONLINE_STATE_COLOURS):
 * the map's green reads 2.3:1 on white, below WCAG AA's 3:1 for large text.
 */
const COUNT_TEXT_COLOURS: Record<(typeof ONLINE_STATES)[number], string> = { online: '#237804', offline: '#cf1322', inactive: 'rgba(0, 0, 0, 0.6)' };

/** The filters of device.distribution.list this page sends (empty ones left out). */
export interface DistributionFilters {
  keyword?: string;
  onlineState?: string;
  productCode?: string;
}

interface ProductOption {
  code: string;
  name: string;
}

export function distributionParam(filters: DistributionFilters): DistributionFilters {
  const param: DistributionFilters = {};
  const keyword = filters.keyword?.replace(/[<>]/g, '').trim().slice(0, 64);
  if (keyword) param.keyword = keyword;
  if (filters.onlineState) param.onlineState = filters.onlineState;
  if (filters.productCode) param.productCode = filters.productCode;
  return param;
}

/** How many points are in each online state, and all together. */
export function stateCounts(points: readonly DevicePoint[]): Record<string, number> & { total: number } {
  const counts: Record<string, number> & { total: number } = { total: points.length, online: 0, offline: 0, inactive: 0 };
  for (const point of points) counts[point.onlineState] = (counts[point.onlineState] ?? 0) + 1;
  return counts;
}

const DETAIL_PATH = '/device/detail';
const EMPTY: DevicePoint[] = [];

/** 设备分布: the scoped devices on a map, filtered by keyword, online state and product. */
export default function DistributionPage({ menu }: ScreenProps) {
  const session = useAtomValue(sessionAtom);
  const navigate = useNavigate();
  const dictionaries = session?.dictionaries;
  const stateLabel = useCallback((state: string) => dictionaryLabel(dictionaries ?? {}, 'device_online_state', state), [dictionaries]);
  const [filters, setFilters] = useState<DistributionFilters>({});
  const [keyword, setKeyword] = useState('');
  const [focus, setFocus] = useState<MapFocus | null>(null);
  /** Bumped by 重置 to clear the place search box too. */
  const [resets, setResets] = useState(0);

  // The product filter's options; without them the filter is empty (no message over the map).
  const products: ProductOption[] = useOperationQuery('product.list', {}, { handlesErrors: true }).data ?? [];
  const param = useMemo(() => distributionParam(filters), [filters]);
  // A failure shows in its place (重试); a failed load keeps the points of the last good one on the map.
  const distribution = useOperationQuery('device.distribution.list', param as ParamOf<'device.distribution.list'>, { handlesErrors: true, keepPrevious: true });
  const points: DevicePoint[] = useLastAnswer(distribution.data as DevicePoint[] | undefined, EMPTY);
  const failure = distribution.error;
  const loading = distribution.fetching;

  const counts = useMemo(() => stateCounts(points), [points]);
  const openDevice = useCallback((code: string) => navigate(`${DETAIL_PATH}?code=${encodeURIComponent(code)}`), [navigate]);
  const locate = useCallback((place: Place) => {
    setFocus((previous) => ({ longitude: place.longitude, latitude: place.latitude, span: FOCUS_SPAN[place.kind] ?? 0.05, label: place.name, serial: (previous?.serial ?? 0) + 1 }));
  }, []);

  const stateOptions = (dictionaries?.device_online_state?.children ?? []).map((item) => ({ value: item.dictValue, label: item.dictLabel }));
  const reset = () => {
    setKeyword('');
    setFilters({});
    setFocus(null);
    setResets((n) => n + 1);
  };

  return (
    <Card
      title={menu.resourceName || '设备分布'}
      data-testid="device-distribution"
      extra={
        <Button icon={<ReloadOutlined />} onClick={distribution.reload}>
          刷新
        </Button>
      }
    >
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          aria-label="设备关键字"
          placeholder="设备编码 / 名称 / 地址"
          style={{ width: 240 }}
          maxLength={64}
          value={keyword}
          onChange={(event) => setKeyword(event.target.value)}
          onSearch={(value) => setFilters((current) => ({ ...current, keyword: value }))}
        />
        <Select
          allowClear
          aria-label="在线状态"
          placeholder="在线状态"
          style={{ width: 140 }}
          value={filters.onlineState}
          options={stateOptions.length ? stateOptions : ONLINE_STATES.map((state) => ({ value: state, label: stateLabel(state) }))}
          onChange={(value?: string) => setFilters((current) => ({ ...current, onlineState: value }))}
        />
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          aria-label="产品"
          placeholder="产品"
          style={{ width: 200 }}
          value={filters.productCode}
          options={products.map((product) => ({ value: product.code, label: product.name }))}
          onChange={(value?: string) => setFilters((current) => ({ ...current, productCode: value }))}
        />
        <Button onClick={reset}>重置</Button>
        <PlaceSearch key={resets} onLocate={locate} />
      </Space>
      <Row gutter={16} style={{ marginBottom: 16 }}>
        <Col xs={12} md={6}>
          <div data-testid="distribution-count-total">
            <Statistic title="设备总数" value={counts.total} />
          </div>
        </Col>
        {ONLINE_STATES.map((state) => (
          <Col xs={12} md={6} key={state}>
            <div data-testid={`distribution-count-${state}`}>
              <Statistic title={stateLabel(state)} value={counts[state] ?? 0} valueStyle={{ color: COUNT_TEXT_COLOURS[state] }} />
            </div>
          </Col>
        ))}
      </Row>
      {failure && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          message="设备分布加载失败"
          description={failure}
          action={
            <Button size="small" onClick={distribution.reload}>
              重试
            </Button>
          }
        />
      )}
      <Spin spinning={loading} tip="加载中">
        <DeviceMap points={points} focus={focus} onOpenDevice={openDevice} stateLabel={stateLabel} height={560} />
      </Spin>
    </Card>
  );
}
