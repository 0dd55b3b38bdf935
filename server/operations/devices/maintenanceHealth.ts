import { businessDay } from '../../domain/businessTime';
import { fail } from '../../http/envelope';
import { exportFile } from '../../core/exports';
import { defineOperation } from '../../core/operation';
import { objectOf, schemaOf, deviceCode } from '../../core/params';
import type { OperationContext } from '../../core/context';
import { custom, equals, listing, type ItemOf } from '../../core/listing';
import { DEVICE_LIST, deviceColumns, deviceFilters, dictLabel, healthStateSchema, scopedLiveDevice } from './maintenanceShared';
import { timeCell } from './workScope';
import { isoOrNull } from '../../core/values';
import { deviceScope } from '../../core/deviceScope';

/**
 * 设备健康: every live device with its health state and score (0–100), the indicators behind
 * the score, its recent errors and the daily score trend. Only part of the fleet is sampled
 * daily; for any other device the trend is its current score alone, and the answer says so.
 */

const score = schemaOf<number>({ type: 'integer', minimum: 0, maximum: 100 });
/** The health list: the live devices of the scope, lowest score first. */
const HEALTH = listing({
  ...DEVICE_LIST,
  scope: async (where, context) => {
    const { scoreMin, scoreMax } = context.param;
    if (scoreMin !== undefined && scoreMax !== undefined && scoreMin > scoreMax) throw fail.badRequest('参数错误：scoreMin（最低分不能高于最高分）');
    where.scope(await deviceScope(context), 'd', { tenant: 'tenant_code' }).add('d.deleted_at IS NULL');
  },
  filters: {
    ...deviceFilters,
    healthState: equals('d.health_state', healthStateSchema),
    scoreMin: custom(score, (where, min) => void where.add('d.health_score >= $?', min)),
    scoreMax: custom(score, (where, max) => void where.add('d.health_score <= $?', max)),
  },
  columns: deviceColumns,
  sorts: {
    healthScore: 'd.health_score',
    code: 'd.code',
    name: 'd.name',
    batteryLevel: 'd.battery_level',
    signalStrength: 'd.signal_strength',
    lastSeenTime: 'd.last_seen_at',
    createTime: 'd.created_at',
  },
  fallback: 'd.health_score, d.code',
});

type HealthDevice = ItemOf<typeof HEALTH>;

type Assessment = '正常' | '关注' | '异常';

/** The indicators a health score stands on, each assessed with a suggestion. */
function indicators(row: HealthDevice, errorCount30d: number, now: Date) {
  const out: Array<{ id: string; indicator: string; value: string; assessment: Assessment; suggestion: string }> = [];
  const add = (indicator: string, value: string, assessment: Assessment, suggestion: string) => out.push({ id: indicator, indicator, value, assessment, suggestion });
  const online = dictLabel('device_online_state', row.onlineState);
  add('在线状态', online, row.onlineState === 'online' ? '正常' : row.onlineState === 'offline' ? '异常' : '关注', row.onlineState === 'offline' ? '检查供电与通信模组' : row.onlineState === 'inactive' ? '设备尚未激活' : '—');
  if (row.batteryLevel !== null) {
    const level = row.batteryLevel;
    add('电池电量', `${level}%`, level >= 20 ? '正常' : level > 0 ? '关注' : '异常', level < 20 ? '安排更换电池' : '—');
  }
  if (row.signalStrength !== null) {
    const csq = row.signalStrength;
    add('信号强度', `${csq}（CSQ）`, csq >= 15 ? '正常' : csq >= 10 ? '关注' : '异常', csq < 15 ? '调整天线或安装位置' : '—');
  }
  if (row.lastSeenTime) {
    const hours = Math.floor((now.getTime() - new Date(row.lastSeenTime).getTime()) / 3_600_000);
    add('最后上报', hours < 1 ? '1 小时内' : `${hours} 小时前`, hours < 2 ? '正常' : hours < 24 ? '关注' : '异常', hours >= 24 ? '检查设备上报周期与网络' : '—');
  }
  add('近 30 天异常', `${errorCount30d} 次`, errorCount30d === 0 ? '正常' : errorCount30d < 3 ? '关注' : '异常', errorCount30d >= 3 ? '建议安排巡检' : '—');
  return out;
}

const TREND_DAYS = 30;

/** The daily trend of `row` over the last `days` business days, ending with today's (current) score. */
async function trendOf(context: OperationContext<unknown>, row: HealthDevice, days: number) {
  const today = businessDay(context.now, context.config.timeZone);
  const samples = await context.db.query<{ sample_date: string; health_score: number; health_state: string }>(
    `SELECT to_char(sample_date, 'YYYY-MM-DD') AS sample_date, health_score, health_state FROM device_health_sample
      WHERE device_code = $1 AND sample_date > $2::date - $3::int AND sample_date < $2::date
      ORDER BY sample_date`,
    [row.code, today, days],
  );
  const points = [
    ...samples.map((sample) => ({ date: sample.sample_date, healthScore: sample.health_score, healthState: sample.health_state })),
    { date: today, healthScore: row.healthScore, healthState: row.healthState },
  ];
  const sampled = samples.length > 0;
  return {
    code: row.code,
    days,
    sampled,
    note: sampled ? `近 ${days} 天每日健康评分` : '该设备未纳入每日健康采样，仅显示当前评分',
    points: points.map((point) => ({ ...point, id: point.date })),
  };
}

const codeParam = objectOf({ code: deviceCode }, ['code']);

export const healthOperations = [
  defineOperation('device.health.page', {
    paramSchema: HEALTH.paramSchema,
    handler: (context) => HEALTH.page(context),
  }),

  defineOperation('device.health.detail', {
    paramSchema: codeParam,
    handler: async (context) => {
      const row = await scopedLiveDevice(context, HEALTH, context.param.code);
      const errors = await context.db.query<{ id: number; code: string; error_type: string; description: string; occurred_at: Date; state: string; handled_by: string | null; handled_at: Date | null }>(
        `SELECT id, code, error_type, description, occurred_at, state, handled_by, handled_at FROM device_error
          WHERE device_code = $1 ORDER BY occurred_at DESC LIMIT 10`,
        [row.code],
      );
      const [{ count }] = await context.db.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM device_error WHERE device_code = $1 AND occurred_at >= $2::timestamptz - interval '30 days'`,
        [row.code, context.now],
      );
      const trend = await trendOf(context, row, TREND_DAYS);
      return {
        ...row,
        trendSampled: trend.sampled,
        trendNote: trend.note,
        errorCount30d: count,
        indicators: indicators(row, count, context.now),
        recentErrors: errors.map((error) => ({
          id: error.id,
          code: error.code,
          errorType: error.error_type,
          description: error.description,
          occurredTime: error.occurred_at.toISOString(),
          state: error.state,
          handledBy: error.handled_by ?? '',
          handledTime: isoOrNull(error.handled_at),
        })),
      };
    },
  }),

  defineOperation('device.health.trend', {
    paramSchema: objectOf({ code: deviceCode, days: schemaOf<number>({ type: 'integer', minimum: 1, maximum: 90 }) }, ['code']),
    handler: async (context) => trendOf(context, await scopedLiveDevice(context, HEALTH, context.param.code), context.param.days ?? TREND_DAYS),
  }),

  defineOperation('device.health.export', {
    paramSchema: HEALTH.paramSchema,
    handler: async (context) =>
      exportFile(
        context,
        '设备健康',
        [
          { title: '设备编码', value: (r: HealthDevice) => r.code },
          { title: '设备名称', value: (r) => r.name },
          { title: '产品', value: (r) => r.productName, width: 22 },
          { title: '组织', value: (r) => r.organizationName, width: 22 },
          { title: '健康状态', value: (r) => dictLabel('device_health_state', r.healthState) },
          { title: '健康评分', value: (r) => r.healthScore },
          { title: '在线状态', value: (r) => dictLabel('device_online_state', r.onlineState) },
          { title: '电池电量(%)', value: (r) => r.batteryLevel },
          { title: '信号强度', value: (r) => r.signalStrength },
          { title: '最后上报', value: (r) => timeCell(r.lastSeenTime) },
        ],
        await HEALTH.rows(context),
      ),
  }),
];
