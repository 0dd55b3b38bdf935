import { createHmac } from 'node:crypto';
import { WEBHOOK_PREFIXES, type ChannelSecrets, type ChannelSettings } from '../../domain/notificationChannels';
import type { AttemptOutcome } from '../delivery';
import { field, requestJson, textField, type JsonAnswer } from './http';

/**
 * The group robots (自定义机器人) of DingTalk and Feishu: a text message posted to the robot's
 * webhook, signed with its 加签 secret as each platform's document defines it, and the robot's
 * answer read — an error code is a failed attempt with the robot's own message.
 *
 * - DingTalk: `timestamp` (milliseconds) and `sign` in the query, sign =
 *   urlencode(base64(HMAC-SHA256(key = secret, timestamp + "\n" + secret))); body
 *   `{"msgtype": "text", "text": {"content"}, "at": {"atMobiles"}}`; answer `{"errcode": 0, "errmsg": "ok"}`.
 * - Feishu: `timestamp` (seconds) and `sign` in the body, sign =
 *   base64(HMAC-SHA256(key = timestamp + "\n" + secret, an empty message)); body
 *   `{"timestamp", "sign", "msg_type": "text", "content": {"text"}}`; answer `{"code": 0, "msg"}`
 *   (older robots `{"StatusCode": 0, "StatusMessage"}`).
 *
 * A webhook is sent to only if it is the platform's robot address (WEBHOOK_PREFIXES, as it was
 * checked when saved); DINGTALK_API_BASE / FEISHU_API_BASE put another origin in front of its path
 * and query (a test's receiver, a private gateway).
 */

export interface RobotContext {
  /** The origin (and path prefix) the webhook's path is sent under; undefined: the webhook's own. */
  base: string | undefined;
  now: () => Date;
  signal: AbortSignal;
}

export function dingtalkSign(secret: string, timestamp: string): string {
  return createHmac('sha256', secret).update(`${timestamp}\n${secret}`).digest('base64');
}

export function feishuSign(secret: string, timestamp: string): string {
  return createHmac('sha256', `${timestamp}\n${secret}`).update('').digest('base64');
}

/** The address a webhook is posted to, or null when it is not the platform's robot address. */
export function robotAddress(webhook: string | undefined, prefixes: readonly string[], base: string | undefined): URL | null {
  if (!webhook || !prefixes.some((prefix) => webhook.startsWith(prefix) && webhook.length > prefix.length)) return null;
  const url = new URL(webhook);
  return base ? new URL(`${base}${url.pathname}${url.search}`) : url;
}

/** The phones a message @-mentions on its last line (消息发送 adds them: `@13800000001 @13800000002`). */
export function mentionedPhones(text: string): string[] {
  const last = text.split('\n').at(-1) ?? '';
  return /^(@1[3-9]\d{9}\s*)+$/.test(last.trim()) ? [...last.matchAll(/@(1[3-9]\d{9})/g)].map((match) => match[1]) : [];
}

const NOT_A_ROBOT = (label: string): AttemptOutcome => ({ ok: false, status: null, error: `Webhook 不是${label}机器人的地址`, final: true });

/** A robot's answer: ok when its code is 0, else its code and message. */
function robotOutcome(answer: JsonAnswer, label: string, code: unknown, message: string): AttemptOutcome {
  if (code === 0) return { ok: true, status: answer.status, error: '' };
  if (code === undefined || code === null) return { ok: false, status: answer.status, error: `${label}返回 HTTP ${answer.status}，不是机器人的应答` };
  return { ok: false, status: answer.status, error: `${label}返回错误 ${String(code)}：${message}` };
}

export async function sendDingtalk(settings: ChannelSettings, secrets: ChannelSecrets, text: string, context: RobotContext): Promise<AttemptOutcome> {
  const url = robotAddress(settings.webhook, WEBHOOK_PREFIXES.dingtalk, context.base);
  if (!url) return NOT_A_ROBOT('钉钉');
  if (secrets.secret) {
    const timestamp = String(context.now().getTime());
    url.searchParams.set('timestamp', timestamp);
    url.searchParams.set('sign', dingtalkSign(secrets.secret, timestamp));
  }
  const body = { msgtype: 'text', text: { content: text }, at: { atMobiles: mentionedPhones(text), isAtAll: false } };
  const answer = await requestJson(url, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) }, context.signal, '钉钉');
  return robotOutcome(answer, '钉钉', field(answer.json, 'errcode'), textField(answer.json, 'errmsg'));
}

export async function sendFeishu(settings: ChannelSettings, secrets: ChannelSecrets, text: string, context: RobotContext): Promise<AttemptOutcome> {
  const url = robotAddress(settings.webhook, WEBHOOK_PREFIXES.feishu, context.base);
  if (!url) return NOT_A_ROBOT('飞书');
  const timestamp = String(Math.floor(context.now().getTime() / 1000));
  const signed = secrets.secret ? { timestamp, sign: feishuSign(secrets.secret, timestamp) } : {};
  const body = { ...signed, msg_type: 'text', content: { text } };
  const answer = await requestJson(url, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) }, context.signal, '飞书');
  const code = field(answer.json, 'code') ?? field(answer.json, 'StatusCode');
  const message = textField(answer.json, 'msg') || textField(answer.json, 'StatusMessage');
  return robotOutcome(answer, '飞书', code, message);
}
