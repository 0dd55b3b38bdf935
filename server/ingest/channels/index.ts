import type { ChannelEndpoints, ServerConfig } from '../../config';
import type { Database } from '../../db/database';
import { openChannelSecrets, SECRET_LABELS } from '../../domain/channelSecrets';
import type { ChannelSecrets, ChannelSettings, ChannelType } from '../../domain/notificationChannels';
import { secretCipherKey } from '../../security/secrets';
import { CODE_TTL_SECONDS } from '../../security/verification';
import type { AttemptOutcome } from '../delivery';
import { outboxTransport, type ChannelMessage, type ChannelTransport } from '../outboxDelivery';
import { sendMail, subjectOf, type MailServer } from './mail';
import { sendDingtalk, sendFeishu } from './robots';
import { sendThroughProvider, templateText } from './sms';
import { sendWechat } from './wechat';

/**
 * The transports that really send (CHANNEL_DELIVERY=send), chosen by the message's channel type:
 * mail over SMTP (./mail.ts), the DingTalk and Feishu robots (./robots.ts), SMS and voice through
 * the channel's provider (./sms.ts, ./aliyun.ts), WeChat template messages (./wechat.ts).
 *
 * A channel message is sent with the settings and secrets its channel (outbox.channel_id) has at
 * the moment of sending; a channel deleted or disabled since gives the message up (no retries).
 * The secrets are stored sealed (server/domain/channelSecrets.ts) and opened here, for the send
 * only; one that does not open (altered, or copied from another channel) gives the message up.
 * A verification code (no channel) goes through the platform's own transport: mail over SMTP_URL
 * when it is set, else through the platform's enabled channel of that type (发送配置 of the
 * platform, tenant none: 平台短信通道, 平台通知邮箱…); with neither, the outbox row is its delivery,
 * as before. A code is not sent once it has expired.
 */

export interface ChannelDeliveryConfig {
  channelDelivery: ServerConfig['channelDelivery'];
  channelEndpoints: ChannelEndpoints;
  smtpUrl?: string;
  smtpFrom?: string;
  /** Whether a tenant's SMTP server may be in the platform's own network (CHANNEL_ALLOW_PRIVATE=1). */
  channelAllowPrivate: boolean;
  now: () => Date;
}

interface ChannelConfiguration {
  id: number;
  tenant_code: string | null;
  channel_type: ChannelType;
  enabled: boolean;
  settings: ChannelSettings;
  /** The secrets as stored, sealed for the channel: opened by send (named apart, so the sealed ones cannot reach a transport). */
  sealed_secrets: ChannelSecrets;
}

const COLUMNS = 'id, tenant_code, channel_type, enabled, settings, secrets AS sealed_secrets';
const gaveUp = (error: string): AttemptOutcome => ({ ok: false, status: null, error, final: true });

/** What one message carries to its transport: the channel message's text, or a code's value. */
interface Outgoing {
  type: ChannelType;
  target: string;
  text: string;
  /** The provider template's variables (SMS, voice): `content` for a channel message, `code` for a code. */
  params: (settings: ChannelSettings) => Record<string, string>;
  subject: string;
}

function outgoingOf(message: ChannelMessage): Outgoing {
  if (message.code) {
    return { type: message.channel, target: message.target, text: message.content, params: () => ({ code: message.code }), subject: '验证码' };
  }
  return {
    type: message.channel,
    target: message.target,
    text: message.content,
    params: (settings) => ({ content: templateText(message.channel, settings, message.content) }),
    subject: subjectOf(message.content),
  };
}

/** The secrets key, read once per transport; a failed read is tried again at the next send rather than kept. */
function keyOf(db: Database): () => Promise<Buffer> {
  let key: Promise<Buffer> | null = null;
  return () =>
    (key ??= secretCipherKey(db).catch((error: unknown) => {
      key = null;
      throw error;
    }));
}

interface Sender {
  db: Database;
  config: ChannelDeliveryConfig;
  cipherKey: () => Promise<Buffer>;
}

async function send({ db, config, cipherKey }: Sender, channel: ChannelConfiguration, outgoing: Outgoing, signal: AbortSignal): Promise<AttemptOutcome> {
  const key = await cipherKey();
  const opened = openChannelSecrets(key, channel.id, channel.sealed_secrets);
  if ('unreadable' in opened) return gaveUp(`渠道的${SECRET_LABELS[opened.unreadable]}无法读取，请在发送配置中重新填写`);
  const { settings } = channel;
  const { secrets } = opened;
  const endpoints = config.channelEndpoints;
  switch (outgoing.type) {
    case 'dingtalk':
      return sendDingtalk(settings, secrets, outgoing.text, { base: endpoints.dingtalk, now: config.now, signal });
    case 'feishu':
      return sendFeishu(settings, secrets, outgoing.text, { base: endpoints.feishu, now: config.now, signal });
    case 'mail':
      // A tenant's server is checked against the platform's own network; the platform's channels are the operator's.
      return sendMail({ settings, secrets, allowPrivate: config.channelAllowPrivate || channel.tenant_code === null }, { to: outgoing.target, subject: outgoing.subject, text: outgoing.text }, signal);
    case 'sms':
    case 'voice':
      return sendThroughProvider(outgoing.type, outgoing.target, outgoing.params(settings), { settings, secrets }, endpoints, config.now, signal);
    case 'wechat':
      return sendWechat(channel.id, settings, secrets, outgoing.target, outgoing.text, { db, cipherKey: key, base: endpoints.wechat, now: config.now, signal });
  }
}

/** A verification code: through SMTP_URL (mail), or the platform's own channel of its type, or the outbox. */
async function sendCode(sender: Sender, message: ChannelMessage, signal: AbortSignal): Promise<AttemptOutcome> {
  const { db, config } = sender;
  if (config.now().getTime() - message.createdAt.getTime() > CODE_TTL_SECONDS * 1000) return gaveUp('验证码已过期，不再发送');
  const outgoing = outgoingOf(message);
  if (message.channel === 'mail' && config.smtpUrl && config.smtpFrom) {
    const server: MailServer = { url: config.smtpUrl, from: config.smtpFrom };
    return sendMail(server, { to: message.target, subject: outgoing.subject, text: outgoing.text }, signal);
  }
  const [platform] = await db.query<ChannelConfiguration>(
    `SELECT ${COLUMNS} FROM notification_channel WHERE tenant_code IS NULL AND channel_type = $1 AND enabled ORDER BY id LIMIT 1`,
    [message.channel],
  );
  if (!platform) return outboxTransport(message, signal);
  return send(sender, platform, outgoing, signal);
}

/** The delivery loop's transport for the outbox: the outbox itself, or the real transports (CHANNEL_DELIVERY=send). */
export function channelTransport(db: Database, config: ChannelDeliveryConfig): ChannelTransport {
  if (config.channelDelivery !== 'send') return outboxTransport;
  const sender: Sender = { db, config, cipherKey: keyOf(db) };
  return async (message, signal) => {
    if (message.code) return sendCode(sender, message, signal);
    if (message.channelId === null) return gaveUp('通知渠道已删除，不再发送');
    const [channel] = await db.query<ChannelConfiguration>(`SELECT ${COLUMNS} FROM notification_channel WHERE id = $1`, [message.channelId]);
    if (!channel) return gaveUp('通知渠道已删除，不再发送');
    if (!channel.enabled) return gaveUp('通知渠道已停用，不再发送');
    if (channel.channel_type !== message.channel) return gaveUp('通知渠道的类型与消息不符');
    return send(sender, channel, outgoingOf(message), signal);
  };
}
