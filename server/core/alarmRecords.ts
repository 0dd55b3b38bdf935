import { ALARM_STATES, ALARM_TYPES, type AlarmState, type AlarmType } from '../domain/alarms';
import type { OperationContext } from './context';
import { deviceScope } from './deviceScope';
import type { Conditions } from './listQuery';
import { between, contains, custom, equals, listing, pickedRange } from './listing';
import { schemaOf, text } from './params';

/**
 * The alarm lists' scope and filters (告警记录 and 监控告警, alarm_record told apart by `source`),
 * declared once below the areas (issue 32): the devices area lists and exports under them, the
 * alarm figures of 工作台 and 设备看板 count under them (core/alarmFigures.ts). The filters name the
 * device `d` for the keyword and the product.
 */

export type AlarmSource = 'device' | 'monitoring';

/** 告警等级 as a select sends it ('1' … '4') or a number. */
export const alarmLevelSchema = schemaOf<string | number>({ anyOf: [{ type: 'string', enum: ['1', '2', '3', '4'] }, { type: 'integer', minimum: 1, maximum: 4 }] });

/** What every alarm list of `source` starts from: its alarms within the request's device scope. */
export const alarmScope =
  (source: AlarmSource) =>
  async (where: Conditions, context: OperationContext<unknown>): Promise<void> => {
    where.scope(await deviceScope(context), 'a', { tenant: 'tenant_code' }).add('a.source = $?', source);
  };

/** The alarm lists' filters, in their param's order. */
export const ALARM_FILTERS = {
  keyword: contains(['a.code', 'a.title', 'a.device_code', 'd.name'], text(64)),
  deviceCode: equals('a.device_code', text(32)),
  alarmType: equals('a.alarm_type', schemaOf<AlarmType>({ type: 'string', enum: [...ALARM_TYPES] })),
  level: equals('a.level', alarmLevelSchema, Number),
  state: equals('a.state', schemaOf<AlarmState>({ type: 'string', enum: [...ALARM_STATES] })),
  organizationCode: custom(text(64), (where, code) => {
    where.add(
      `a.organization_code IN (
        WITH RECURSIVE sub (code) AS (SELECT code FROM organization WHERE code = $? UNION SELECT c.code FROM organization c JOIN sub ON c.parent_code = sub.code)
        SELECT code FROM sub)`,
      code,
    );
  }),
  productCode: equals('d.product_code', text(32)),
  ruleCode: custom(text(32), (where, code) => void where.add('a.rule_id = (SELECT id FROM alarm_rule WHERE code = $?)', code)),
  timeRange: between('a.triggered_at', pickedRange),
};

/** The FROM of an alarm list's count and choice of rows: the alarms, with their device when the WHERE or the sort reads it. */
export const alarmNarrowFrom = (needed: string): string => (/\bd\./.test(needed) ? 'alarm_record a JOIN device d ON d.code = a.device_code' : 'alarm_record a');

/** The device alarms the filters pick within reach: the list's WHERE, for the figures that count under it. */
export const DEVICE_ALARMS_WHERE = listing({
  from: 'alarm_record a JOIN device d ON d.code = a.device_code',
  narrowFrom: alarmNarrowFrom,
  scope: alarmScope('device'),
  filters: ALARM_FILTERS,
  columns: {},
  sorts: [],
  fallback: 'a.id',
});
