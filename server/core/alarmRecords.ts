import type { AlarmState, AlarmType } from '../domain/alarms';
import type { OperationContext } from './context';
import { deviceScope } from './deviceScope';
import { Conditions, containing } from './listQuery';
import { pickedRangeOf } from './params';

/**
 * The alarm lists' filters and WHERE (告警记录 and 监控告警, alarm_record told apart by `source`),
 * below the areas (issue 32): the devices area lists and exports under it, the alarm figures of
 * 工作台 and 设备看板 count under it (core/alarmFigures.ts).
 */

export type AlarmSource = 'device' | 'monitoring';

export interface RecordFilter {
  keyword?: string;
  deviceCode?: string;
  alarmType?: AlarmType;
  level?: string | number;
  state?: AlarmState;
  organizationCode?: string;
  productCode?: string;
  ruleCode?: string;
  timeRange?: [string, string];
}

/** The WHERE of a list: scope, source, filter. Names device `d` for the keyword and product filters. */
export async function recordWhere(context: OperationContext<unknown>, source: AlarmSource, filter: RecordFilter): Promise<Conditions> {
  const where = new Conditions().scope(await deviceScope(context), 'a', { tenant: 'tenant_code' }).add('a.source = $?', source);
  if (filter.keyword) where.add('(a.code ILIKE $? OR a.title ILIKE $? OR a.device_code ILIKE $? OR d.name ILIKE $?)', containing(filter.keyword));
  if (filter.deviceCode) where.add('a.device_code = $?', filter.deviceCode);
  if (filter.alarmType) where.add('a.alarm_type = $?', filter.alarmType);
  if (filter.level !== undefined) where.add('a.level = $?', Number(filter.level));
  if (filter.state) where.add('a.state = $?', filter.state);
  if (filter.productCode) where.add('d.product_code = $?', filter.productCode);
  if (filter.ruleCode) where.add('a.rule_id = (SELECT id FROM alarm_rule WHERE code = $?)', filter.ruleCode);
  if (filter.organizationCode) {
    where.add(
      `a.organization_code IN (
        WITH RECURSIVE sub (code) AS (SELECT code FROM organization WHERE code = $? UNION SELECT c.code FROM organization c JOIN sub ON c.parent_code = sub.code)
        SELECT code FROM sub)`,
      filter.organizationCode,
    );
  }
  if (filter.timeRange) {
    const [start, end] = pickedRangeOf(filter.timeRange, context.config.timeZone);
    where.add('a.triggered_at >= $?', start);
    where.add('a.triggered_at <= $?', end);
  }
  return where;
}
