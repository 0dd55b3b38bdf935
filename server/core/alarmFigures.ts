import { businessDay } from '../domain/businessTime';
import { ALARM_LEVEL_LABELS } from '../domain/alarms';
import type { OperationContext } from './context';
import { DEVICE_ALARMS_WHERE } from './alarmRecords';

/**
 * The alarm figures of 工作台 and 设备看板 (issue 34), each the count of 告警记录 (the device alarms'
 * list, alarm.record.page) under a filter the console can put in the list's address: 待处理 is the
 * list's 告警状态 = 待处理, 今日新增 its 触发时间 from today's 00:00:00 to 23:59:59 (business day),
 * each by 告警等级. The WHERE is the list's own (core/alarmRecords.ts).
 */

export interface LevelCount {
  level: number;
  name: string;
  count: number;
}

export interface AlarmCounts {
  total: number;
  /** Levels 1–4 (紧急, 重要, 次要, 提示), each present. */
  levels: LevelCount[];
}

export interface AlarmFigures {
  pending: AlarmCounts;
  today: AlarmCounts;
  /** 今日新增's 触发时间 filter, as the list's range picker sends it: ["YYYY-MM-DD 00:00:00", "YYYY-MM-DD 23:59:59"]. */
  todayRange: [string, string];
}

const LEVELS = [1, 2, 3, 4] as const;

async function countByLevel(context: OperationContext<unknown>, filter: Parameters<typeof DEVICE_ALARMS_WHERE.where>[0]['param']): Promise<AlarmCounts> {
  const where = await DEVICE_ALARMS_WHERE.where({ ...context, param: filter });
  const rows = await context.db.query<{ level: number; count: number }>(`SELECT a.level, count(*)::int AS count FROM alarm_record a WHERE ${where.sql} GROUP BY 1`, where.params);
  const levels = LEVELS.map((level) => ({ level, name: ALARM_LEVEL_LABELS[level], count: rows.find((row) => row.level === level)?.count ?? 0 }));
  return { total: levels.reduce((sum, level) => sum + level.count, 0), levels };
}

/** 待处理 and 今日新增 device alarms of the request's scope, by level. */
export async function alarmFigures(context: OperationContext<unknown>): Promise<AlarmFigures> {
  const today = businessDay(context.now, context.config.timeZone);
  const todayRange: [string, string] = [`${today} 00:00:00`, `${today} 23:59:59`];
  const [pending, raised] = await Promise.all([countByLevel(context, { state: 'pending' }), countByLevel(context, { timeRange: todayRange })]);
  return { pending, today: raised, todayRange };
}
