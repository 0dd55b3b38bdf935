import type { Queryable } from '../db/database';
import { maskTarget } from '../security/verification';
import { businessMinute } from './businessTime';

/**
 * Notification channels (发送配置): what each channel type needs, how its secrets are masked,
 * how a ${变量} template is rendered, and the outbox every delivery goes to. Nothing here goes
 * to the network: a message is written to the outbox of migration 003 (the dev operation
 * dev.outbox reads it) with the channel it is for (migration 121), and sent afterwards by the
 * delivery loop through that channel's transport, with retries and a log
 * (server/ingest/outboxDelivery.ts, server/ingest/channels/; with CHANNEL_DELIVERY=outbox, the
 * default, the outbox row is the delivery).
 */

export const CHANNEL_TYPES = ['dingtalk', 'feishu', 'mail', 'sms', 'voice', 'wechat'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** The labels of the notification_channel_type dictionary. */
export const CHANNEL_LABELS: Readonly<Record<ChannelType, string>> = { dingtalk: '钉钉', feishu: '飞书', mail: '邮件', sms: '短信', voice: '语音', wechat: '微信' };

/** The SMS and voice providers (notification_provider dictionary). */
export const PROVIDERS = ['aliyun', 'tencent', 'huawei'] as const;
export type Provider = (typeof PROVIDERS)[number];
export const PROVIDER_LABELS: Readonly<Record<Provider, string>> = { aliyun: '阿里云', tencent: '腾讯云', huawei: '华为云' };

/** Group robots post into a chat; the other types reach one person at an address. */
export const isRobot = (type: ChannelType): boolean => type === 'dingtalk' || type === 'feishu';

/** The plain settings a channel may have (stored in `settings`). */
export interface ChannelSettings {
  webhook?: string;
  smtpHost?: string;
  smtpPort?: number;
  smtpTls?: boolean;
  mailAccount?: string;
  sender?: string;
  provider?: Provider;
  accessKeyId?: string;
  signName?: string;
  templateCode?: string;
  appId?: string;
  templateId?: string;
}

/** The secrets a channel may have (stored sealed in `secrets`, ./channelSecrets.ts; answered only masked). */
export interface ChannelSecrets {
  secret?: string;
  mailPassword?: string;
  accessKeySecret?: string;
  appSecret?: string;
}

export type SettingName = keyof ChannelSettings;
export type SecretName = keyof ChannelSecrets;

/** Each type's own fields, all required: its settings and its secrets. */
export const CHANNEL_FIELDS: Readonly<Record<ChannelType, { settings: readonly SettingName[]; secrets: readonly SecretName[] }>> = {
  dingtalk: { settings: ['webhook'], secrets: ['secret'] },
  feishu: { settings: ['webhook'], secrets: ['secret'] },
  mail: { settings: ['smtpHost', 'smtpPort', 'smtpTls', 'mailAccount', 'sender'], secrets: ['mailPassword'] },
  sms: { settings: ['provider', 'accessKeyId', 'signName', 'templateCode'], secrets: ['accessKeySecret'] },
  voice: { settings: ['provider', 'accessKeyId', 'templateCode'], secrets: ['accessKeySecret'] },
  wechat: { settings: ['appId', 'templateId'], secrets: ['appSecret'] },
};

/** Every setting and secret name, for param schemas. */
export const SETTING_NAMES: readonly SettingName[] = ['webhook', 'smtpHost', 'smtpPort', 'smtpTls', 'mailAccount', 'sender', 'provider', 'accessKeyId', 'signName', 'templateCode', 'appId', 'templateId'];
export const SECRET_NAMES: readonly SecretName[] = ['secret', 'mailPassword', 'accessKeySecret', 'appSecret'];

/** Where a robot's webhook must point (the chat platforms' own robot endpoints). */
export const WEBHOOK_PREFIXES: Readonly<Record<'dingtalk' | 'feishu', readonly string[]>> = {
  dingtalk: ['https://oapi.dingtalk.com/robot/send?access_token='],
  feishu: ['https://open.feishu.cn/open-apis/bot/v2/hook/', 'https://open.larksuite.com/open-apis/bot/v2/hook/'],
};

const MASK = '****';

/** `****1a2b`: the last four characters of a long secret, nothing of a short one. */
export function maskSecret(secret: string): string {
  return secret.length > 8 ? `${MASK}${secret.slice(-4)}` : `${MASK}${MASK}`;
}

/** Whether a submitted value is a mask (the console sends back what it was shown). */
export const looksMasked = (value: string): boolean => value.startsWith(MASK);

/** ${变量}: a name of letters (Chinese too), digits and underscores. */
const PLACEHOLDER = /\$\{([\p{L}_][\p{L}\p{N}_]{0,31})\}/gu;

/** The variables a template names, each once, in order. */
export function templateVariables(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((match) => match[1]))];
}

/**
 * Variables every template may use without being given them: the recipient's name, the
 * message's title and content, and the sending time.
 */
export const BUILT_IN_VARIABLES = ['姓名', '标题', '内容', '时间'] as const;
export const isBuiltIn = (name: string): boolean => (BUILT_IN_VARIABLES as readonly string[]).includes(name);

/** The first variable of the template that `values` lacks (or leaves blank), or null. */
export function missingVariable(template: string, values: Readonly<Record<string, string>>): string | null {
  return templateVariables(template).find((name) => !values[name]?.trim()) ?? null;
}

/** The template with each ${变量} replaced by its value (a missing one stays as written). */
export function renderTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => values[name] ?? whole);
}

/** 2026-03-18 09:30 in the business zone (Beijing time by default), as messages print it. */
export function messageTime(at: Date, timeZone: string): string {
  return businessMinute(at, timeZone);
}

/** The text a channel of `type` actually carries: an SMS starts with its 【签名】. */
export function framedMessage(type: ChannelType, settings: ChannelSettings, text: string): string {
  if (type === 'sms' && settings.signName) return `【${settings.signName}】${text}`;
  return text;
}

/** The address field of a user a channel of `type` needs, and what is said when it is missing. */
export const ADDRESS_OF: Readonly<Record<ChannelType, { column: 'phone' | 'mail' | 'wechat_open_id'; missing: string }>> = {
  dingtalk: { column: 'phone', missing: '接收人未绑定手机号，无法在群内@提醒' },
  feishu: { column: 'phone', missing: '接收人未绑定手机号，无法在群内@提醒' },
  mail: { column: 'mail', missing: '接收人未绑定邮箱' },
  sms: { column: 'phone', missing: '接收人未绑定手机号' },
  voice: { column: 'phone', missing: '接收人未绑定手机号' },
  wechat: { column: 'wechat_open_id', missing: '接收人未绑定微信（未关注公众号）' },
};

export interface OutboxMessage {
  type: ChannelType;
  /** A phone, a mail, an openId, or a robot's webhook. */
  target: string;
  content: string;
  at: Date;
  /** The tenant it is sent for (the delivery log lists a tenant's own). */
  tenantCode?: string | null;
  /** The channel (notification_channel.id) whose settings and secrets send it: read when it is sent, never copied here. */
  channelId: number;
}

/** For the log: a webhook by its host, a person's address masked. */
function logTarget(target: string): string {
  if (target.startsWith('https://')) return new URL(target).host;
  return target.includes('@') || /^\d{7,}$/.test(target) ? maskTarget(target) : `${target.slice(0, 4)}****`;
}

/**
 * Sends messages: writes them to the outbox, pending, in one statement, and logs the masked
 * targets only. The delivery loop sends them after the transaction commits
 * (server/ingest/outboxDelivery.ts), with retries.
 */
export async function deliverAll(db: Queryable, messages: readonly OutboxMessage[], log: (line: string) => void): Promise<void> {
  if (messages.length === 0) return;
  await db.query(
    `INSERT INTO outbox (channel, target, code, content, created_at, tenant_code, channel_id, delivery_state, next_attempt_at)
     SELECT channel, target, '', content, at, tenant_code, channel_id, 'pending', at
       FROM jsonb_to_recordset($1::jsonb) AS v(k int, channel text, target text, content text, at timestamptz, tenant_code text, channel_id int) ORDER BY k`,
    [
      JSON.stringify(
        messages.map((message, k) => ({
          k,
          channel: message.type,
          target: message.target,
          content: message.content,
          at: message.at.toISOString(),
          tenant_code: message.tenantCode ?? null,
          channel_id: message.channelId,
        })),
      ),
    ],
  );
  for (const message of messages) log(`[outbox] ${message.type} ${logTarget(message.target)}`);
}

/** Sends one message (deliverAll). */
export async function deliver(db: Queryable, message: OutboxMessage, log: (line: string) => void): Promise<void> {
  await deliverAll(db, [message], log);
}
