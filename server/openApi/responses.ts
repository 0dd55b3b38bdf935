import { ALARM_STATES, ALARM_TYPES } from '../domain/alarms';
import { COMMAND_STATES, COMMAND_TYPES } from '../domain/deviceCommands';

/**
 * What each operation of the open subset answers in `data` (JSON Schema 2020-12, as OpenAPI 3.1
 * reads it). The handlers' own return types are the truth these describe; tests/server/open-api*
 * validate every answer the tests receive against them, so a field added, dropped or retyped in a
 * handler fails there until it is documented here.
 */

export type JsonSchema = { readonly [key: string]: unknown };

/**
 * A field's type, compactly: `string`, `integer`, `number`, `boolean`, `time` (ISO 8601), and
 * `time|` (ISO 8601 or '' when there is none); a trailing `?` admits null. Or a whole schema.
 */
type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'time' | 'time|';
type Spec = Kind | `${Kind}?` | JsonSchema;
type Field = Spec | readonly [Spec, string];

function schemaOf(spec: Spec): JsonSchema {
  if (typeof spec !== 'string') return spec;
  const nullable = spec.endsWith('?');
  const kind = (nullable ? spec.slice(0, -1) : spec) as Kind;
  const base: JsonSchema =
    kind === 'time' ? { type: 'string', format: 'date-time' } : kind === 'time|' ? { type: 'string', anyOf: [{ format: 'date-time' }, { const: '' }] } : { type: kind };
  if (!nullable) return base;
  if (kind === 'time') return { type: ['string', 'null'], format: 'date-time' };
  return { ...base, type: [kind === 'time|' ? 'string' : kind, 'null'] };
}

/** An object with exactly these fields, each present. */
export function record(fields: Readonly<Record<string, Field>>, extra: JsonSchema = {}): JsonSchema {
  const properties = Object.fromEntries(
    Object.entries(fields).map(([name, field]) => {
      if (Array.isArray(field)) {
        const [spec, description] = field as readonly [Spec, string];
        return [name, { ...schemaOf(spec), description }];
      }
      return [name, schemaOf(field as Spec)];
    }),
  );
  return { type: 'object', properties, required: Object.keys(fields), additionalProperties: false, ...extra };
}

const enumOf = (values: readonly string[], description: string): JsonSchema => ({ type: 'string', enum: [...values], description });
const strings: JsonSchema = { type: 'array', items: { type: 'string' } };

/** A page of `item`s: the listQuery answer. */
export function pageOf(item: JsonSchema, title: string): JsonSchema {
  return {
    type: 'object',
    title,
    properties: {
      records: { type: 'array', items: item },
      total: { type: 'integer', minimum: 0, description: '总条数（超过 10,000 条时为估计值）' },
      pageNumber: { type: 'integer', minimum: 1 },
      pageSize: { type: 'integer', minimum: 1 },
      totalAtLeast: { type: 'integer', description: '列表超过 10,000 条时出现：已确切数到的条数' },
    },
    required: ['records', 'total', 'pageNumber', 'pageSize'],
    additionalProperties: false,
  };
}

const deviceFields = {
  id: 'integer',
  code: ['string', '设备编码（12 位字母或数字）'],
  name: ['string', '设备名称'],
  productCode: 'string',
  productName: 'string',
  model: 'string',
  nodeType: ['string', '节点类型：直连设备、网关、网关子设备'],
  organizationCode: ['string', '安装的项目或区域'],
  organizationName: 'string',
  imei: 'string',
  firmwareVersion: 'string',
  onlineState: enumOf(['online', 'offline', 'inactive'], '在线状态：在线、离线、未激活'),
  healthState: enumOf(['healthy', 'subhealthy', 'faulty'], '健康状态：健康、亚健康、故障'),
  healthScore: 'integer',
  batteryPowered: 'boolean',
  batteryLevel: ['integer?', '电量（%），市电设备为 null'],
  batteryRatio: 'number?',
  batteryState: { type: ['string', 'null'], enum: ['normal', 'low', 'exhausted', null] },
  signalStrength: ['integer?', '信号强度（0-31）'],
  temperature: ['number?', '温度（℃）'],
  longitude: 'number?',
  latitude: 'number?',
  address: 'string',
  gatewayCode: ['string', '所属网关编码，无则为空字符串'],
  iccid: ['string', '绑定的物联网卡，无则为空字符串'],
  cardBinding: { type: 'string', enum: ['bound', 'unbound'] },
  cardOperator: 'string',
  sleeping: 'boolean',
  sleepSince: 'time?',
  lastSeenTime: ['time?', '最后上报时间'],
  activatedTime: 'time?',
  createTime: 'time',
  remark: 'string',
  followed: ['boolean', '调用者是否关注（访问密钥没有关注，恒为 false）'],
  followTime: 'time?',
} as const satisfies Record<string, Field>;

const device = record(deviceFields, { title: '设备' });

const command = record(
  {
    id: 'integer',
    code: ['string', '设备编码'],
    commandType: enumOf(COMMAND_TYPES, '指令类型'),
    parameters: { type: 'object', description: '指令参数' },
    commandText: 'string',
    commandHex: 'string',
    state: enumOf(['pending'], '待下发：已连接的设备随即收到（之后 sent），其余在连接或下次上报时收到'),
    createTime: 'time',
    expiresAt: ['time', '此前未收到设备回复即为已过期（expired）'],
  },
  { title: '设备指令' },
);

const deviceDetail = record(
  {
    ...deviceFields,
    displayTags: [strings, '租户所选的标签显示（标签：值）'],
    categoryName: 'string',
    protocol: 'string',
    manufacturer: 'string',
    gatewayName: 'string',
    subDeviceCount: 'integer',
    latestReport: ['string', '最近一次上报的摘要'],
    latestReportTime: 'time?',
    recentCommands: {
      type: 'array',
      description: '最近 10 条指令',
      items: record({ id: 'integer', commandType: 'string', commandText: 'string', commandHex: 'string', state: 'string', createdBy: 'string', createTime: 'time' }),
    },
  },
  { title: '设备详情' },
);

const telemetry: JsonSchema = {
  type: 'object',
  title: '设备上报数据',
  description: '一次上报：固定字段之外，上报的每个指标以其名称为字段（数值或文本）',
  properties: {
    id: { type: 'string' },
    reportTime: { type: 'string', format: 'date-time', description: '上报时间' },
    summary: { type: 'string', description: '指标摘要' },
    batteryLevel: { type: ['integer', 'null'] },
    signalStrength: { type: ['integer', 'null'] },
    temperature: { type: ['number', 'null'] },
  },
  required: ['id', 'reportTime', 'summary', 'batteryLevel', 'signalStrength', 'temperature'],
  additionalProperties: { type: ['number', 'string'] },
};

const alarm = record(
  {
    id: 'integer',
    code: ['string', '告警编码'],
    ruleCode: 'string',
    ruleName: 'string',
    deviceCode: 'string',
    deviceName: 'string',
    productCode: 'string',
    productName: 'string',
    organizationCode: 'string',
    organizationName: 'string',
    alarmType: enumOf(ALARM_TYPES, '告警类型'),
    level: { type: 'string', enum: ['1', '2', '3', '4'], description: '告警级别：1 紧急 … 4 提示' },
    state: enumOf(ALARM_STATES, '状态：待处理、处理中、已处理、已恢复、已忽略'),
    open: ['boolean', '是否仍未关闭（待处理或处理中）'],
    title: 'string',
    content: 'string',
    metricValue: 'number?',
    triggeredAt: 'time',
    recoveredAt: 'time|',
    durationSeconds: 'integer',
    handledBy: 'string',
    handledByName: 'string',
    handledAt: 'time|',
    handleRemark: 'string',
    repairOrderCode: 'string',
    source: { type: 'string', enum: ['device', 'monitoring'] },
  },
  { title: '告警记录' },
);

const alarmHandled = record({ code: 'string', state: { type: 'string', enum: ['resolved', 'ignored'] } }, { title: '告警处理结果' });

const repairOrder = record(
  {
    id: 'integer',
    code: ['string', '工单编号'],
    type: { type: 'string', const: 'repair' },
    title: 'string',
    description: 'string',
    state: ['string', '工单状态（字典 work_order_state）'],
    source: 'string',
    sourceCode: 'string',
    priority: 'string',
    faultType: 'string',
    maintenanceType: 'string',
    tenantCode: 'string',
    organizationCode: 'string',
    organizationName: 'string',
    deviceCode: 'string',
    deviceName: 'string',
    productName: 'string',
    address: 'string',
    contactName: 'string',
    contactPhone: 'string',
    batchCode: 'string',
    creatorName: 'string',
    assigneeId: 'integer?',
    assigneeName: 'string',
    assigneePhone: 'string',
    planStartTime: 'time|',
    deadline: 'time|',
    planTime: { type: ['array', 'null'], items: { type: 'string', format: 'date-time' } },
    overdue: 'boolean',
    assignTime: 'time|',
    acceptTime: 'time|',
    startTime: 'time|',
    completeTime: 'time|',
    auditTime: 'time|',
    closeTime: 'time|',
    result: 'string',
    faultCause: 'string',
    cost: 'number?',
    auditState: 'string',
    auditOpinion: 'string',
    rejectReason: 'string',
    closeReason: 'string',
    formTemplateId: 'integer?',
    formTemplateVersion: 'integer?',
    formData: { type: ['object', 'null'] },
    createTime: 'time|',
    updateTime: 'time|',
    canAssign: 'boolean',
    canAccept: 'boolean',
    canStart: 'boolean',
    canComplete: 'boolean',
    canAudit: 'boolean',
    canReject: 'boolean',
    canRefuse: 'boolean',
    canClose: 'boolean',
  },
  { title: '维修工单' },
);

const simCard = record(
  {
    id: 'integer',
    iccid: 'string',
    msisdn: 'string',
    imsi: 'string',
    operator: ['string', '运营商：cmcc、cucc、ctcc、cbn'],
    supplierName: 'string',
    customCode: 'string',
    customName: 'string',
    packageCode: 'string',
    packageName: 'string',
    network: 'string',
    flowMb: 'number',
    state: ['string', '卡状态（字典 card_state）'],
    tenantCode: 'string',
    tenantName: 'string',
    organizationCode: 'string',
    organizationName: 'string',
    orderCode: 'string',
    deliveryCode: 'string',
    alterCode: 'string',
    inReplacement: 'boolean',
    replaceable: 'boolean',
    deviceCode: 'string',
    deviceName: 'string',
    batchCode: 'string',
    testUntil: 'time?',
    activateTime: 'time?',
    expireTime: 'time?',
    daysLeft: 'integer?',
    monthUsedMb: 'number',
    remainingMb: 'number',
    usagePercent: 'number',
    totalUsedMb: 'number',
    lastSessionTime: 'time?',
    ceaseReason: 'string',
    suspendTime: 'time?',
    deactivateTime: 'time?',
    replacedBy: 'string',
    syncTime: 'time?',
    remark: 'string',
    createTime: 'time?',
  },
  { title: '物联网卡' },
);

const commandDetail = record(
  {
    id: 'integer',
    code: ['string', '设备编码'],
    commandType: enumOf(COMMAND_TYPES, '指令类型'),
    state: enumOf(COMMAND_STATES, 'pending 待下发、sent 已下发、acknowledged 已确认、failed 执行失败、expired 已过期（有效期内未回复）'),
    createTime: 'time',
    sentTime: ['time?', '下发时间（MQTT QoS 1 为设备确认收到 PUBACK 的时间；HTTP 为随上报应答带回的时间）'],
    replyTime: ['time?', '设备回复时间'],
    result: { type: ['string', 'null'], enum: ['ok', 'failed', null], description: '设备回复的 result' },
    message: ['string?', '设备回复的 message'],
  },
  { title: '设备指令状态' },
);

/** Integrators provision devices: create, modify, recycle and issue a credential (issue 31). */
const deviceCreated = record({ id: 'integer', code: ['string', '设备编码'] }, { title: '新增的设备' });
const deviceRecycled = record({ deleted: ['integer', '移入回收站的设备数'] }, { title: '移入回收站' });
const deviceCredential = record(
  {
    deviceCode: 'string',
    issued: 'boolean',
    issuedTime: 'time?',
    reportPath: ['string', 'HTTP 上报地址（路径）'],
    secret: ['string', '新的接入密钥：只返回这一次，平台只保存其摘要；旧密钥立即失效，设备已打开的 MQTT 会话随即断开'],
  },
  { title: '设备接入凭证' },
);

/** What `data` holds, by operation name. */
export const OPEN_RESPONSE_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  'device.page': pageOf(device, '设备分页'),
  'device.detail': deviceDetail,
  'device.data.page': pageOf(telemetry, '设备历史数据分页'),
  'deviceAccess.command.generate': command,
  'deviceAccess.command.detail': commandDetail,
  'device.insert': deviceCreated,
  'device.modify': { type: 'null' },
  'device.delete': deviceRecycled,
  'device.credential.reset': deviceCredential,
  'alarm.record.page': pageOf(alarm, '告警记录分页'),
  'alarm.record.handle': alarmHandled,
  'repair.order.page': pageOf(repairOrder, '维修工单分页'),
  'card.sim.page': pageOf(simCard, '物联网卡分页'),
};
