import { LogoutOutlined } from '@ant-design/icons';
import { Alert, ConfigProvider, Empty, Spin, Tag, theme } from 'antd';
import dayjs from '../../../renderers/runtime/dayjs';
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useOperationQuery, usePageQuery } from '../../api/data';
import { EChart } from '../../charts/EChart';
import { DeviceMap } from '../../maps/DeviceMap';
import type { DevicePoint } from '../../maps/types';
import { MEANING_COLOURS, seriesColours } from '../../../renderers/displays/colours';
import type { StateColour } from '../../../renderers/schema/actionTypes';
import { dictionaryColour, dictionaryLabel } from '../../session/dictionary';
import { sessionAtom, type Session } from '../../session/session';
import { readSession } from '../../session/storage';
import {
  alarmTrendOption,
  deviceTrendOption,
  KPI_CARDS,
  onlineGaugeOption,
  onlineRatePercent,
  type AlarmRecord,
  type AlarmTrendDay,
  type DeviceTrendDay,
  type Overview,
} from './panels';
import { panelOf, type PanelState } from './usePanel';
import './bigScreen.css';

/** The board reloads every panel this often. */
export const REFRESH_INTERVAL_MS = 60_000;
const LATEST_ALARM_COUNT = 10;
/**
 * Panel heights that fit the board in a 1440×900 window without scrollbars (issue 21): the side
 * columns' two panels and their titles are as tall as the map's panel.
 */
const PANEL_HEIGHT = { upper: 230, lower: 330, map: 634 } as const;

// Each panel's query polls every REFRESH_INTERVAL_MS and handles its own errors: a failure shows in
// its panel, not as a message over the board. Typed by the operations' contracts: an answer that no
// longer fits a panel's type fails tsc (issue 23).
const PANEL_QUERY = { refetchInterval: REFRESH_INTERVAL_MS, handlesErrors: true } as const;
const LATEST_ALARMS = { param: {}, pageNumber: 1, pageSize: LATEST_ALARM_COUNT, sort: [{ field: 'triggeredAt', order: 'desc' as const }] };

/** The latest alarms panel: the first page of alarm records, newest first, polled like the others. */
function useLatestAlarms(): PanelState<AlarmRecord[]> {
  const page = usePageQuery('alarm.record.page', LATEST_ALARMS, PANEL_QUERY);
  return { data: (page.data?.records as AlarmRecord[] | undefined) ?? null, loading: page.loading, error: page.error };
}

function findName(nodes: Session['organizations'], code: string | null): string {
  if (!code) return '';
  for (const node of nodes) {
    if (node.organizationCode === code) return node.organizationName;
    const below = findName(node.children ?? [], code);
    if (below) return below;
  }
  return '';
}

/** The tenant's name (the board's owner) and the organisation selected within it. */
export function boardNames(session: Session | null): { tenant: string; organization: string } {
  const organization = readSession('customName') ?? '';
  const tenant = session ? findName(session.organizations, readSession('tenantCode')) : '';
  return { tenant: tenant || organization, organization };
}

function Clock() {
  const [now, setNow] = useState(() => dayjs());
  useEffect(() => {
    const timer = setInterval(() => setNow(dayjs()), 1000);
    return () => clearInterval(timer);
  }, []);
  const weekday = '日一二三四五六'[now.day()];
  return (
    <div className="big-screen__clock" data-testid="big-screen-clock">
      {now.format('YYYY-MM-DD')} 星期{weekday} {now.format('HH:mm:ss')}
    </div>
  );
}

/** A panel: its title, a spinner until the first answer, its own error when its call fails. */
function Panel<T>({ title, state, testId, height, children }: { title: string; state: PanelState<T>; testId: string; height: number; children: (data: T) => ReactNode }) {
  let body: ReactNode;
  if (state.data !== null) body = children(state.data);
  else if (state.loading) body = <Spin tip="加载中"><div style={{ height: 60 }} /></Spin>;
  else body = <Alert type="error" showIcon message="加载失败" description={state.error ?? ''} data-testid="panel-error" />;
  return (
    <section className="big-screen__panel" data-testid={testId} aria-label={title}>
      <div className="big-screen__panel-title">{title}</div>
      {state.data !== null && state.error && (
        <span className="big-screen__stale" title={state.error}>
          刷新失败，显示上次数据
        </span>
      )}
      <div className="big-screen__panel-body" style={{ minHeight: height }}>
        {body}
      </div>
    </section>
  );
}

function Kpis({ state }: { state: PanelState<Overview> }) {
  if (state.data === null) {
    return (
      <section className="big-screen__panel" data-testid="big-screen-kpis" style={{ marginBottom: 16 }}>
        {state.loading ? <Spin tip="加载中"><div style={{ height: 60 }} /></Spin> : <Alert type="error" showIcon message="概览加载失败" description={state.error ?? ''} data-testid="panel-error" />}
      </section>
    );
  }
  const overview = state.data;
  return (
    <div className="big-screen__kpis" data-testid="big-screen-kpis">
      {KPI_CARDS.map((card) => (
        <div className="big-screen__kpi" key={card.field} data-testid={`kpi-${card.field}`}>
          <div className="big-screen__kpi-title">{card.title}</div>
          <div className="big-screen__kpi-value" style={{ color: card.colour }}>
            {Number(overview[card.field] ?? 0).toLocaleString('zh-CN')}
            <span className="big-screen__kpi-unit">{card.unit}</span>
          </div>
        </div>
      ))}
    </div>
  );
}

type Colour = (dictType: string, value: unknown) => StateColour;

function LatestAlarms({ records, levelLabel, stateLabel, colour }: { records: AlarmRecord[]; levelLabel: (level: string) => string; stateLabel: (state: string) => string; colour: Colour }) {
  if (records.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无告警" />;
  return (
    <table className="big-screen__alarms">
      <colgroup>
        <col className="big-screen__alarms-time" />
        <col />
        <col className="big-screen__alarms-level" />
        <col />
        <col className="big-screen__alarms-state" />
      </colgroup>
      <thead>
        <tr>
          <th>时间</th>
          <th>设备</th>
          <th>等级</th>
          <th>告警</th>
          <th>状态</th>
        </tr>
      </thead>
      <tbody>
        {records.map((alarm) => {
          const level = String(alarm.level);
          return (
            <tr key={alarm.code}>
              <td>{dayjs(alarm.triggeredAt).format('MM-DD HH:mm')}</td>
              <td title={alarm.deviceCode}>{alarm.deviceName || alarm.deviceCode}</td>
              <td>
                <Tag color={colour('alarm_level', level)} style={{ marginInlineEnd: 0, lineHeight: '16px' }}>
                  {levelLabel(level)}
                </Tag>
              </td>
              <td title={alarm.title}>{alarm.title}</td>
              <td>
                <Tag color={colour('alarm_state', alarm.state)} style={{ marginInlineEnd: 0, lineHeight: '16px' }}>
                  {stateLabel(alarm.state)}
                </Tag>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/**
 * The personal big screen (SPEC §1, §6): a full-screen dark board of the selected organisation's
 * devices and alarms, every panel refreshed each minute and failing on its own.
 */
export default function BigScreenPage() {
  const session = useAtomValue(sessionAtom);
  const navigate = useNavigate();
  const overview = panelOf<Overview>(useOperationQuery('dashboard.overview', {}, PANEL_QUERY));
  const deviceTrend = panelOf<DeviceTrendDay[]>(useOperationQuery('dashboard.deviceTrend', { days: 30 }, PANEL_QUERY));
  const alarmTrend = panelOf<AlarmTrendDay[]>(useOperationQuery('dashboard.alarmTrend', { days: 14 }, PANEL_QUERY));
  const points = panelOf<DevicePoint[]>(useOperationQuery('device.distribution.list', {}, PANEL_QUERY));
  const alarms = useLatestAlarms();

  const dictionaries = session?.dictionaries;
  const label = useCallback((dictType: string) => (value: string) => dictionaryLabel(dictionaries ?? {}, dictType, value), [dictionaries]);
  const onlineLabel = useMemo(() => label('device_online_state'), [label]);
  const levelLabel = useMemo(() => label('alarm_level'), [label]);
  const alarmStateLabel = useMemo(() => label('alarm_state'), [label]);
  const openDevice = useCallback((code: string) => navigate(`/device/detail?code=${encodeURIComponent(code)}`), [navigate]);

  const gauge = useMemo(() => (overview.data ? onlineGaugeOption(onlineRatePercent(overview.data)) : null), [overview.data]);
  const deviceTrendChart = useMemo(() => (deviceTrend.data ? deviceTrendOption(deviceTrend.data) : null), [deviceTrend.data]);
  // A state's colour is its dictionary item's, as on every other page (issue 34).
  const colour = useCallback<Colour>((dictType, value) => dictionaryColour(dictionaries ?? {}, dictType, value), [dictionaries]);
  const levelColour = useCallback((level: string) => MEANING_COLOURS[colour('alarm_level', level)], [colour]);
  const alarmTrendChart = useMemo(() => (alarmTrend.data ? alarmTrendOption(alarmTrend.data, levelLabel, levelColour) : null), [alarmTrend.data, levelLabel, levelColour]);
  const names = boardNames(session);

  return (
    <ConfigProvider theme={{ algorithm: theme.darkAlgorithm, token: { colorBgContainer: 'transparent' } }}>
      <div className="big-screen" data-testid="big-screen">
        <header className="big-screen__header">
          <Clock />
          <div>
            <h1 className="big-screen__title">{names.tenant || '物联网设备平台'} · 设备运行监控</h1>
            {names.organization && names.organization !== names.tenant && <div className="big-screen__subtitle">{names.organization}</div>}
          </div>
          <Link to="/dashboard" className="big-screen__exit" data-testid="big-screen-exit">
            <LogoutOutlined /> 返回控制台
          </Link>
        </header>
        <Kpis state={overview} />
        <div className="big-screen__grid">
          <div className="big-screen__column">
            <Panel title="设备在线率" state={overview} testId="panel-online-rate" height={PANEL_HEIGHT.upper}>
              {() => gauge && <EChart option={gauge} label="设备在线率" height={PANEL_HEIGHT.upper} />}
            </Panel>
            <Panel title="设备增长趋势（近30天）" state={deviceTrend} testId="panel-device-trend" height={PANEL_HEIGHT.lower}>
              {() => deviceTrendChart && <EChart option={deviceTrendChart} label="设备增长趋势" height={PANEL_HEIGHT.lower} />}
            </Panel>
          </div>
          <Panel title="设备分布" state={points} testId="panel-distribution" height={PANEL_HEIGHT.map}>
            {(data) => <DeviceMap points={data} onOpenDevice={openDevice} stateLabel={onlineLabel} height={PANEL_HEIGHT.map} dark />}
          </Panel>
          <div className="big-screen__column">
            <Panel title="告警趋势（近14天）" state={alarmTrend} testId="panel-alarm-trend" height={PANEL_HEIGHT.upper}>
              {() =>
                alarmTrendChart && (
                  <div data-series-colours={seriesColours(alarmTrendChart)}>
                    <EChart option={alarmTrendChart} label="告警趋势" height={PANEL_HEIGHT.upper} />
                  </div>
                )
              }
            </Panel>
            <Panel title="最新告警" state={alarms} testId="panel-latest-alarms" height={PANEL_HEIGHT.lower}>
              {(records) => <LatestAlarms records={records} levelLabel={levelLabel} stateLabel={alarmStateLabel} colour={colour} />}
            </Panel>
          </div>
        </div>
      </div>
    </ConfigProvider>
  );
}
