import type { Queryable, SqlParam } from '../../db/database';
import { bind } from '../../db/parameters';
import { ALARM_TYPES, conditionText, METRIC_NAMES, NOTIFY_CHANNELS, OPERATOR_NAMES } from '../../domain/alarms';
import { fail } from '../../http/envelope';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { enumOf, flag, integerIn, numberIn, objectOf, schemaOf, text, optionalPlainText, plainText, type ParamOf, orBlank } from '../../core/params';
import { Conditions, containing, pageOf, type Listing } from '../../core/listQuery';
import { scopeCondition } from '../../core/scope';
import { conflictOnClash } from '../../core/conflicts';
import { deviceScope, type DeviceScope } from '../../core/deviceScope';
import { catalogueClause } from './tenancy';
import { owningTenant, tenantInScope } from '../../core/access';
import { alarmLevelSchema } from '../../core/alarmRecords';

/**
 * Alarm configuration (告警配置): a tenant's rules — which products, what metric crosses which
 * threshold for how long, the level and type of the alarm raised and where it is notified.
 * Rules belong to one tenant; another tenant's rule is "404".
 */

/** A level as the dictionary selects send it ("1"…"4") or as a number. */
export const levelSchema = alarmLevelSchema;

/** The plausible range of each metric's threshold ("400" outside). */
const THRESHOLD_RANGES: Record<string, [number, number]> = {
  temperature: [-40, 125],
  humidity: [0, 100],
  battery: [0, 100],
  pressure: [0, 10],
  level: [0, 100],
  flow: [0, 100_000],
  ph: [0, 14],
  turbidity: [0, 1000],
  smoke: [0, 100],
  signal: [0, 31],
  offline_minutes: [1, 10_080],
  fault_code: [0, 9999],
};

interface RuleRow {
  id: number;
  code: string;
  name: string;
  product_code: string | null;
  product_name: string | null;
  tenant_code: string;
  tenant_name: string;
  alarm_type: string;
  level: number;
  metric: string;
  operator: string;
  threshold: string;
  duration_minutes: number;
  notify_channels: string[];
  recover_automatically: boolean;
  enabled: boolean;
  remark: string;
  created_by: string;
  created_at: Date;
  updated_at: Date;
  alarm_count: number;
}

const RULE_COLUMNS = `
  r.id, r.code, r.name, r.product_code, p.name AS product_name, r.tenant_code, t.name AS tenant_name, r.alarm_type, r.level,
  r.metric, r.operator, r.threshold::text AS threshold, r.duration_minutes, r.notify_channels, r.recover_automatically, r.enabled, r.remark, r.created_by,
  r.created_at, r.updated_at`;
const RULE_FROM = `
  alarm_rule r
  LEFT JOIN product p ON p.code = r.product_code
  JOIN organization t ON t.code = r.tenant_code`;

/** The alarms the rule `r` raised within the scope since `since`; its values appended to `params`. */
function alarmCount(scope: DeviceScope, params: SqlParam[], since: Date): string {
  const sinceParam = bind(params, since);
  return `(SELECT count(*)::int FROM alarm_record a WHERE a.rule_id = r.id AND ${scopeCondition(scope, params, 'a', { tenant: 'tenant_code' })} AND a.triggered_at >= ${sinceParam})`;
}

const CHANNEL_LABELS: Record<string, string> = { dingtalk: '钉钉', feishu: '飞书', mail: '邮件', sms: '短信', voice: '语音', wechat: '微信' };

function ruleRecord(row: RuleRow) {
  const threshold = Number(row.threshold);
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    productCode: row.product_code ?? '',
    productName: row.product_name ?? '全部产品',
    tenantCode: row.tenant_code,
    tenantName: row.tenant_name,
    alarmType: row.alarm_type,
    level: String(row.level),
    metric: row.metric,
    operator: row.operator,
    threshold,
    durationMinutes: row.duration_minutes,
    condition: conditionText(row.metric, row.operator, threshold, row.duration_minutes),
    notifyChannels: row.notify_channels,
    notifyChannelNames: row.notify_channels.map((channel) => CHANNEL_LABELS[channel] ?? channel).join('、'),
    recoverAutomatically: row.recover_automatically,
    enabled: row.enabled,
    alarmCount: row.alarm_count,
    remark: row.remark,
    createdBy: row.created_by,
    createTime: row.created_at.toISOString(),
    updateTime: row.updated_at.toISOString(),
  };
}

const THIRTY_DAYS_MS = 30 * 86_400_000;

/**
 * The rules of the tenant in scope (every tenant's above the tenants), and their columns with the
 * alarms each raised within the scope over the last 30 days (`alarms`, also the sort by it).
 */
async function ruleBase(context: OperationContext<unknown>): Promise<{ where: Conditions; columns: string; alarms: string }> {
  const scope = await deviceScope(context);
  const tenantCode = await tenantInScope(context);
  const where = new Conditions();
  const alarms = alarmCount(scope, where.params, new Date(context.now.getTime() - THIRTY_DAYS_MS));
  if (tenantCode !== null) where.add('r.tenant_code = $?', tenantCode);
  return { where, columns: `${RULE_COLUMNS}, ${alarms} AS alarm_count`, alarms };
}

/** The rule `code` of the tenant in scope ("404" 告警配置不存在 otherwise). */
async function findRule(context: OperationContext<unknown>, db: Queryable, code: string): Promise<RuleRow> {
  const { where, columns } = await ruleBase(context);
  where.add('r.code = $?', code);
  const [row] = await db.query<RuleRow>(`SELECT ${columns} FROM ${RULE_FROM} WHERE ${where.sql}`, where.params);
  if (!row) throw fail.notFound('告警配置不存在');
  return row;
}

const ruleFields = objectOf(
  {
    name: plainText(64),
    productCode: orBlank(text(32, 1)),
    alarmType: enumOf(ALARM_TYPES),
    level: levelSchema,
    metric: enumOf(METRIC_NAMES),
    operator: enumOf(OPERATOR_NAMES),
    threshold: numberIn(-100_000, 100_000),
    durationMinutes: integerIn(0, 10_080),
    notifyChannels: schemaOf<string[]>({ type: 'array', maxItems: NOTIFY_CHANNELS.length, uniqueItems: true, items: { type: 'string', enum: [...NOTIFY_CHANNELS] } }),
    /** Whether the alarm is marked 已恢复 once a reading is back within bounds (default true). */
    recoverAutomatically: flag,
    enabled: flag,
    remark: optionalPlainText(200),
  },
  ['name', 'alarmType', 'level', 'metric', 'operator', 'threshold'],
);
type RuleFields = ParamOf<typeof ruleFields>;

/** What JSON Schema cannot say: the metric fits the type, the threshold fits the metric, the product is visible. */
async function checkRule(context: OperationContext<unknown>, fields: RuleFields, tenantCode: string): Promise<void> {
  if (fields.alarmType === 'offline' && fields.metric !== 'offline_minutes') throw fail.badRequest('参数错误：metric（离线告警须使用离线时长指标）');
  if (fields.alarmType === 'battery' && fields.metric !== 'battery') throw fail.badRequest('参数错误：metric（低电量告警须使用电池电量指标）');
  if (fields.alarmType !== 'offline' && fields.metric === 'offline_minutes') throw fail.badRequest('参数错误：alarmType（离线时长指标只用于离线告警）');
  if (fields.alarmType === 'fault' && fields.metric !== 'fault_code') throw fail.badRequest('参数错误：metric（故障告警须使用故障码指标）');
  if (fields.alarmType !== 'fault' && fields.metric === 'fault_code') throw fail.badRequest('参数错误：alarmType（故障码指标只用于故障告警）');
  const [low, high] = THRESHOLD_RANGES[fields.metric];
  if (fields.threshold < low || fields.threshold > high) throw fail.badRequest(`参数错误：threshold（应在 ${low} 到 ${high} 之间）`);
  if (fields.productCode) {
    const params: SqlParam[] = [fields.productCode];
    const visible = catalogueClause(tenantCode, params, 'p');
    const [product] = await context.db.query(`SELECT 1 FROM product p WHERE p.code = $1 AND ${visible}`, params);
    if (!product) throw fail.badField('productCode');
  }
}

async function checkNameFree(db: Queryable, tenantCode: string, name: string, exceptCode: string | null): Promise<void> {
  const [clash] = await db.query('SELECT 1 FROM alarm_rule WHERE tenant_code = $1 AND name = $2 AND code <> $3', [tenantCode, name, exceptCode ?? '']);
  if (clash) throw fail.conflict('已有同名的告警配置');
}

/** The next rule code of a tenant: AR + the tenant's two digits + a serial (AR010012). */
async function nextRuleCode(db: Queryable, tenantCode: string): Promise<string> {
  const prefix = `AR${tenantCode.slice(-2)}`;
  const [row] = await db.query<{ serial: number }>(
    `SELECT COALESCE(max(substring(code FROM 5)::int), 0) + 1 AS serial FROM alarm_rule WHERE code ~ ('^' || $1 || '[0-9]+$')`,
    [prefix],
  );
  return `${prefix}${String(row.serial).padStart(4, '0')}`;
}

const ruleColumns = (fields: RuleFields) => [
  fields.name,
  fields.productCode || null,
  fields.alarmType,
  Number(fields.level),
  fields.metric,
  fields.operator,
  fields.threshold,
  fields.durationMinutes ?? 0,
  fields.notifyChannels ?? [],
  fields.remark ?? '',
  fields.recoverAutomatically ?? true,
];

const RULE_SORTS = { code: 'r.code', name: 'r.name', level: 'r.level', createTime: 'r.created_at', updateTime: 'r.updated_at' };

export const alarmRuleOperations = [
  defineOperation('alarm.config.page', {
    paramSchema: objectOf({
      keyword: text(64),
      alarmType: enumOf(ALARM_TYPES),
      level: levelSchema,
      productCode: text(32),
      enabled: enumOf(['1', '0']),
    }),
    handler: async (context) => {
      const { where, columns, alarms } = await ruleBase(context);
      const filter = context.param;
      if (filter.keyword) where.add('(r.code ILIKE $? OR r.name ILIKE $?)', containing(filter.keyword));
      if (filter.alarmType) where.add('r.alarm_type = $?', filter.alarmType);
      if (filter.level !== undefined) where.add('r.level = $?', Number(filter.level));
      if (filter.productCode) where.add('(r.product_code = $? OR r.product_code IS NULL)', filter.productCode);
      if (filter.enabled) where.add(filter.enabled === '1' ? 'r.enabled' : 'NOT r.enabled');
      // Counted and chosen over the rules alone; product, tenant and alarm count for the page's rows.
      const listing: Listing<RuleRow, ReturnType<typeof ruleRecord>> = {
        from: RULE_FROM,
        narrowFrom: 'alarm_rule r',
        key: 'r.id',
        columns,
        sorts: { ...RULE_SORTS, alarmCount: alarms },
        fallback: 'r.tenant_code, r.level, r.code',
        record: ruleRecord,
      };
      return pageOf(context, listing, where);
    },
  }),

  defineOperation('alarm.config.detail', {
    paramSchema: objectOf({ code: text(32, 1) }, ['code']),
    handler: async (context) => ruleRecord(await findRule(context, context.db, context.param.code)),
  }),

  defineOperation('alarm.config.insert', {
    paramSchema: objectOf({ rule: ruleFields }, ['rule']),
    handler: async (context) => {
      const fields = context.param.rule;
      const tenantCode = await owningTenant(context);
      await checkRule(context, fields, tenantCode);
      return context.db.transaction(async (tx) => {
        await checkNameFree(tx, tenantCode, fields.name, null);
        const code = await nextRuleCode(tx, tenantCode);
        await conflictOnClash(
          () =>
            tx.query(
              `INSERT INTO alarm_rule (name, product_code, alarm_type, level, metric, operator, threshold, duration_minutes, notify_channels, remark,
                                       recover_automatically, code, tenant_code, enabled, created_by, created_at, updated_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16)`,
              [...ruleColumns(fields), code, tenantCode, fields.enabled ?? true, callerOf(context).loginName, context.now],
            ),
          { unique: '告警配置编码已存在，请重试' },
        );
        return { code };
      });
    },
  }),

  defineOperation('alarm.config.modify', {
    paramSchema: objectOf({ code: text(32, 1), rule: ruleFields }, ['code', 'rule']),
    handler: async (context) => {
      const { code, rule: fields } = context.param;
      const row = await findRule(context, context.db, code);
      await checkRule(context, fields, row.tenant_code);
      await context.db.transaction(async (tx) => {
        await checkNameFree(tx, row.tenant_code, fields.name, code);
        await tx.query(
          `UPDATE alarm_rule SET name = $1, product_code = $2, alarm_type = $3, level = $4, metric = $5, operator = $6, threshold = $7,
                  duration_minutes = $8, notify_channels = $9, remark = $10, recover_automatically = $11, enabled = $12, updated_at = $13
            WHERE code = $14`,
          [...ruleColumns(fields), fields.enabled ?? row.enabled, context.now, code],
        );
      });
      return null;
    },
  }),

  defineOperation('alarm.config.delete', {
    paramSchema: objectOf({ code: text(32, 1) }, ['code']),
    handler: async (context) => {
      const row = await findRule(context, context.db, context.param.code);
      // Alarms it raised stay in the records (rule_id becomes null). Of two deletions at once the second finds nothing.
      const deleted = await context.db.query<{ id: number }>('DELETE FROM alarm_rule WHERE id = $1 RETURNING id', [row.id]);
      if (deleted.length === 0) throw fail.notFound('告警配置不存在');
      return null;
    },
  }),

  defineOperation('alarm.config.enable', {
    paramSchema: objectOf({ code: text(32, 1), enabled: flag }, ['code', 'enabled']),
    handler: async (context) => {
      const row = await findRule(context, context.db, context.param.code);
      await context.db.query('UPDATE alarm_rule SET enabled = $2, updated_at = $3 WHERE id = $1', [row.id, context.param.enabled, context.now]);
      return { code: row.code, enabled: context.param.enabled };
    },
  }),
];
