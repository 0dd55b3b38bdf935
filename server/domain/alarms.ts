/**
 * The vocabulary of alarms shared by the seed and the operations: what a rule may watch (the
 * alarm_metric dictionary, with units), how it compares (alarm_operator) and the alarm states.
 */
export const ALARM_METRICS = {
  temperature: { label: '温度', unit: '℃' },
  humidity: { label: '湿度', unit: '%RH' },
  battery: { label: '电池电量', unit: '%' },
  pressure: { label: '压力', unit: 'MPa' },
  level: { label: '液位', unit: 'm' },
  flow: { label: '瞬时流量', unit: 'm³/h' },
  ph: { label: 'pH 值', unit: '' },
  turbidity: { label: '浊度', unit: 'NTU' },
  smoke: { label: '烟雾浓度', unit: '%obs/m' },
  signal: { label: '信号强度', unit: 'CSQ' },
  offline_minutes: { label: '离线时长', unit: '分钟' },
  fault_code: { label: '故障码', unit: '' },
} as const;
export type AlarmMetric = keyof typeof ALARM_METRICS;
export const METRIC_NAMES = Object.keys(ALARM_METRICS) as AlarmMetric[];

export const ALARM_OPERATORS = { gt: '>', ge: '≥', lt: '<', le: '≤', eq: '=' } as const;
export type AlarmOperator = keyof typeof ALARM_OPERATORS;
export const OPERATOR_NAMES = Object.keys(ALARM_OPERATORS) as AlarmOperator[];

export const ALARM_TYPES = ['threshold', 'offline', 'fault', 'battery'] as const;
export type AlarmType = (typeof ALARM_TYPES)[number];

export const ALARM_STATES = ['pending', 'processing', 'resolved', 'recovered', 'ignored'] as const;
export type AlarmState = (typeof ALARM_STATES)[number];

/** States an alarm can still be handled from (to resolved or ignored, or sent to repair). */
export const OPEN_ALARM_STATES: readonly AlarmState[] = ['pending', 'processing'];

export const ALARM_LEVEL_LABELS: Record<number, string> = { 1: '紧急', 2: '重要', 3: '次要', 4: '提示' };
export const ALARM_STATE_LABELS: Record<AlarmState, string> = { pending: '待处理', processing: '处理中', resolved: '已处理', recovered: '已恢复', ignored: '已忽略' };
export const ALARM_TYPE_LABELS: Record<AlarmType, string> = { threshold: '阈值告警', offline: '离线告警', fault: '故障告警', battery: '低电量告警' };
export const NOTIFY_CHANNELS = ['dingtalk', 'feishu', 'mail', 'sms', 'voice', 'wechat'] as const;

/** A value with its metric's unit: 0.85MPa, 41.2℃. */
export function withUnit(metric: string, value: number): string {
  const unit = (ALARM_METRICS as Record<string, { unit: string }>)[metric]?.unit ?? '';
  return `${Math.round(value * 100) / 100}${unit}`;
}

/** The condition of a rule as people read it: 压力 > 0.8MPa 持续 5 分钟. */
export function conditionText(metric: string, operator: string, threshold: number, durationMinutes: number): string {
  const label = (ALARM_METRICS as Record<string, { label: string }>)[metric]?.label ?? metric;
  const sign = (ALARM_OPERATORS as Record<string, string>)[operator] ?? operator;
  return `${label} ${sign} ${withUnit(metric, threshold)}${durationMinutes > 0 ? ` 持续 ${durationMinutes} 分钟` : ''}`;
}
