import type { CatalogueEntry } from '../catalogue';
import { OPEN_RESPONSE_SCHEMAS, type JsonSchema } from './responses';

/**
 * The open subset (issue 23): the catalogued operations a tenant's access key may call, each
 * served by the operation's own handler (same param schema, same scope, same SQL) under
 * `/api/open/v1` + its catalogue path: `device.page` (`/device/_page`) is
 * `POST /api/open/v1/device/_page`. The body is the console's: `{param}`, and for a list
 * `{pageParam:{pageNumber,pageSize}, param, sortParamList}`; the answer is the envelope.
 */

export const OPEN_API_PREFIX = '/api/open/v1';

export interface OpenOperation {
  /** The catalogued operation this serves. */
  name: string;
  /** Its area in the documentation. */
  tag: OpenTag;
  /** What an integrator should know beyond the catalogue's title. */
  description: string;
  /** `data` of a successful answer. */
  response: JsonSchema;
}

export const OPEN_TAGS = [
  { name: '设备', description: '设备建档、接入密钥、设备列表、设备详情、历史上报数据、下发指令与指令状态' },
  { name: '告警', description: '告警记录列表与告警处理' },
  { name: '工单', description: '维修工单列表' },
  { name: '物联网卡', description: '物联网卡列表' },
] as const;
export type OpenTag = (typeof OPEN_TAGS)[number]['name'];

const open = (name: string, tag: OpenTag, description: string): OpenOperation => {
  const response = OPEN_RESPONSE_SCHEMAS[name];
  if (!response) throw new Error(`the open operation ${name} has no response schema`);
  return { name, tag, description, response };
};

export const OPEN_OPERATIONS: readonly OpenOperation[] = [
  open('device.page', '设备', '租户下未删除的设备，可按关键字、产品、在线状态、健康状态、组织与创建时间筛选；sortParamList 可按 code、name、lastSeenTime、createTime 等排序。'),
  open('device.detail', '设备', '一台设备的详情：最近上报、最近 10 条指令与租户所选的标签显示。其他租户的设备答 404 设备不存在。'),
  open('device.data.page', '设备', '一台设备的历史上报数据，最新在前；timeRange 为业务时区（默认 Asia/Shanghai）的 ["YYYY-MM-DD HH:mm:ss", "YYYY-MM-DD HH:mm:ss"]。'),
  open('deviceAccess.command.generate', '设备', '生成一条设备指令（state=pending）：已连接并订阅 devices/<设备编码>/commands 的设备随即收到（收到 PUBACK 后为 sent），其余在连接或下次上报时收到；设备回复后为 acknowledged 或 failed，expiresAt 前未回复为 expired。用 deviceAccess.command.detail 查询进展。report_interval 须带 intervalMinutes。'),
  open('deviceAccess.command.detail', '设备', '一条设备指令的状态：下发、回复时间与设备回复的 result、message。其他租户的指令答 404 指令不存在。'),
  open('device.insert', '设备', '新增一台设备（设备编码 12 位字母或数字，租户内的产品与组织）；随后用 device.credential.reset 签发接入密钥。编码已存在答 409。'),
  open('device.credential.reset', '设备', '签发（或重置）设备的接入密钥：secret 只在此次应答中出现；设备以设备编码与此密钥通过 MQTT 或 HTTP 接入，旧密钥立即失效。'),
  open('device.modify', '设备', '修改一台设备的名称、产品、组织、IMEI、位置与备注。'),
  open('device.delete', '设备', '把一台设备移入回收站：它不再能接入上报，已打开的 MQTT 会话随即断开。'),
  open('alarm.record.page', '告警', '租户设备产生的告警记录，可按设备、类型、级别、状态、组织、规则与触发时间筛选。'),
  open('alarm.record.handle', '告警', '把一条未关闭的告警处理为已处理（resolved）或已忽略（ignored）；已关闭的告警答 409 该告警已处理（两个同时处理只有一个成功）。'),
  open('repair.order.page', '工单', '租户的维修工单，可按状态、优先级、来源、故障类型、设备与时间筛选。'),
  open('card.sim.page', '物联网卡', '租户名下的物联网卡，可按关键字（ICCID、MSISDN、设备编码）、状态、运营商、网络与到期情况筛选。'),
];

/** The open path of a catalogued operation. */
export function openPathOf(entry: Pick<CatalogueEntry, 'path'>): string {
  return `${OPEN_API_PREFIX}${entry.path}`;
}
