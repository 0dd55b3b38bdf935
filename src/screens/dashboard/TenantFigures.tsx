import { Typography } from 'antd';
import type { DataOf } from '../../api/typed';
import type { MenuResource } from '../../session/types';
import { listLink } from './figureLinks';
import { FigureRow, FigureTile, type FigureTone } from './FigureTile';
import { FleetFigures } from './FleetFigures';

type TenantHome = DataOf<'home.tenant.summary'>;
type AlarmData = NonNullable<TenantHome['alarms']>;

const ALARMS = 'alarm/record';
/** What each alarm level means as a status (the level's name is always beside it). */
const LEVEL_TONES: Readonly<Record<number, FigureTone>> = { 1: 'error', 2: 'warning', 3: 'processing', 4: 'default' };

export function SectionTitle({ children }: { children: string }) {
  return (
    <Typography.Title level={5} style={{ margin: '20px 0 10px' }}>
      {children}
    </Typography.Title>
  );
}

/** 待处理 and 今日新增 alarms, in all and by level, each leading to 告警记录 filtered the same way. */
function AlarmFigures({ alarms, menus }: { alarms: AlarmData; menus: readonly MenuResource[] }) {
  const today = { timeRange: alarms.todayRange };
  return (
    <>
      <FigureRow label="待处理告警">
        {[
          <FigureTile key="pending" name="alarms-pending" label="待处理告警" tone="warning" value={alarms.pending.total} unit="条" link={listLink(menus, ALARMS, { state: 'pending' })} />,
          ...alarms.pending.levels.map((level) => (
            <FigureTile
              key={level.level}
              name={`alarms-pending-${level.level}`}
              label={`待处理 · ${level.name}`}
              tone={LEVEL_TONES[level.level]}
              value={level.count}
              unit="条"
              link={listLink(menus, ALARMS, { state: 'pending', level: String(level.level) })}
            />
          )),
        ]}
      </FigureRow>
      <div style={{ height: 12 }} />
      <FigureRow label="今日新增告警">
        {[
          <FigureTile key="today" name="alarms-today" label="今日新增告警" tone="processing" value={alarms.today.total} unit="条" link={listLink(menus, ALARMS, today)} />,
          ...alarms.today.levels.map((level) => (
            <FigureTile
              key={level.level}
              name={`alarms-today-${level.level}`}
              label={`今日 · ${level.name}`}
              tone={LEVEL_TONES[level.level]}
              value={level.count}
              unit="条"
              link={listLink(menus, ALARMS, { ...today, level: String(level.level) })}
            />
          )),
        ]}
      </FigureRow>
    </>
  );
}

/** 工作台 of a tenant's staff: the fleet, the alarms, the work past its time and the cards about to expire. */
export function TenantFigures({ home, menus }: { home: TenantHome; menus: readonly MenuResource[] }) {
  const work = [
    home.repair ? (
      <FigureTile key="overdue" name="repair-overdue" label="超期维修工单" tone="error" value={home.repair.overdue} unit="单" link={listLink(menus, 'repair/order', { overdue: '1' })} />
    ) : null,
    home.repair ? (
      <FigureTile key="created" name="repair-created" label="待派单维修工单" tone="warning" value={home.repair.created} unit="单" link={listLink(menus, 'repair/order', { state: 'created' })} />
    ) : null,
    home.patrol ? (
      <FigureTile key="patrol" name="patrol-overdue" label="逾期巡检任务" tone="error" value={home.patrol.overdue} unit="项" link={listLink(menus, 'patrol/list', { state: 'overdue' })} />
    ) : null,
    home.cards ? (
      <FigureTile key="cards" name="cards-expiring" label="30 天内到期的物联网卡" tone="warning" value={home.cards.expiring30} unit="张" link={listLink(menus, 'card/internet', { expiry: 'expiring30' })} />
    ) : null,
  ].filter((tile) => tile !== null);
  return (
    <>
      {home.devices ? (
        <>
          <SectionTitle>设备概况</SectionTitle>
          <FleetFigures fleet={home.devices} menus={menus} />
        </>
      ) : null}
      {home.alarms ? (
        <>
          <SectionTitle>告警</SectionTitle>
          <AlarmFigures alarms={home.alarms} menus={menus} />
        </>
      ) : null}
      {work.length ? (
        <>
          <SectionTitle>工单与物联网卡</SectionTitle>
          <FigureRow label="工单与物联网卡">{work}</FigureRow>
        </>
      ) : null}
    </>
  );
}
