import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { createTransport } from 'nodemailer';
import type { ChannelSecrets, ChannelSettings } from '../../domain/notificationChannels';
import type { AttemptOutcome } from '../delivery';
import { isPrivateAddress } from '../webhookDelivery';

/**
 * Mail through SMTP with nodemailer: a tenant's mail channel (发送配置: SMTP 服务器, 端口, SSL/TLS,
 * 邮箱账号, 发件人, 邮箱密码) or the platform's SMTP_URL. On port 465, or with SSL/TLS ticked, the
 * connection is TLS from the start (nodemailer `secure`); otherwise nodemailer upgrades it with
 * STARTTLS whenever the server offers it. The server's certificate is checked as Node checks any,
 * against the configured host name.
 *
 * A tenant's SMTP server is the tenant's to choose, so like a webhook it may not point into the
 * platform's own network (loopback, private, link-local addresses: the host is resolved first and
 * the mail goes to the address checked) unless CHANNEL_ALLOW_PRIVATE=1. The platform's own
 * (SMTP_URL, the platform's channels) are the operator's and are not checked.
 */

/** Where one mail goes out: a channel's settings, or an smtp:// / smtps:// address (SMTP_URL). */
export type MailServer = { url: string; from: string } | { settings: ChannelSettings; secrets: ChannelSecrets; allowPrivate: boolean };

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Each step of the SMTP conversation waits at most this long (below the delivery's own 10 s limit). */
const STEP_TIMEOUT_MS = 8000;

/** The subject of a channel's mail: its first line, at most 60 characters. */
export function subjectOf(text: string): string {
  const first = text.split('\n').find((line) => line.trim() !== '')?.trim() ?? '';
  return first.length > 60 ? `${first.slice(0, 59)}…` : first || '通知';
}

const TIMEOUTS = { connectionTimeout: STEP_TIMEOUT_MS, greetingTimeout: STEP_TIMEOUT_MS, socketTimeout: STEP_TIMEOUT_MS };

/** The address a tenant's SMTP host is reached at, or why it may not be. */
async function addressOf(host: string, allowPrivate: boolean): Promise<string | AttemptOutcome> {
  let addresses: Array<{ address: string }>;
  try {
    addresses = isIP(host) ? [{ address: host }] : await lookup(host, { all: true, verbatim: true });
  } catch (error) {
    return { ok: false, status: null, error: `无法解析邮件服务器 ${host}：${(error as { code?: string }).code ?? String(error)}` };
  }
  if (!allowPrivate && addresses.some((one) => isPrivateAddress(one.address))) {
    return { ok: false, status: null, error: `邮件服务器 ${host} 指向内网地址，已拒绝`, final: true };
  }
  return addresses[0]?.address ?? host;
}

function channelTransport(settings: ChannelSettings, secrets: ChannelSecrets, address: string) {
  const host = settings.smtpHost ?? '';
  const port = settings.smtpPort ?? 465;
  return createTransport({
    host: address,
    port,
    secure: settings.smtpTls === true || port === 465,
    // The certificate is checked against the name configured, not the address it resolved to.
    tls: isIP(host) ? {} : { servername: host },
    auth: settings.mailAccount ? { user: settings.mailAccount, pass: secrets.mailPassword ?? '' } : undefined,
    ...TIMEOUTS,
  });
}

/** What the mail server said, for the delivery log: its reply line, or the connection's fault. */
function failureOf(error: unknown): string {
  const fault = error as { response?: string; code?: string; message?: string };
  if (fault.response) return `邮件服务器拒绝：${fault.response.slice(0, 300)}`;
  return `邮件发送失败：${fault.code ?? ''} ${fault.message ?? String(error)}`.trim();
}

/** Sends one mail; a refusal (or a server that cannot be reached) is a failed attempt with the server's words. */
export async function sendMail(server: MailServer, message: MailMessage, signal: AbortSignal): Promise<AttemptOutcome> {
  let transport: ReturnType<typeof createTransport>;
  let from: string;
  if ('url' in server) {
    transport = createTransport({ url: server.url, ...TIMEOUTS });
    from = server.from;
  } else {
    if (!server.settings.smtpHost) return { ok: false, status: null, error: '邮件渠道未配置 SMTP 服务器', final: true };
    const address = await addressOf(server.settings.smtpHost, server.allowPrivate);
    if (typeof address !== 'string') return address;
    transport = channelTransport(server.settings, server.secrets, address);
    from = server.settings.sender ?? server.settings.mailAccount ?? '';
  }
  const abort = () => transport.close();
  signal.addEventListener('abort', abort, { once: true });
  try {
    await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    return { ok: true, status: null, error: '' };
  } catch (error) {
    return { ok: false, status: null, error: failureOf(error) };
  } finally {
    signal.removeEventListener('abort', abort);
    transport.close();
  }
}
