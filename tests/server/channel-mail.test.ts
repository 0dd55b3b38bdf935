// Issue 31, channels that really send: mail over SMTP through nodemailer. A local SMTP server
// (smtp-server) on 127.0.0.1 receives what a tenant's mail channel sends: an alarm's mail arrives
// there with its text, from the channel's sender, signed in with its account and password. A
// refusal is a failed attempt with the server's words; STARTTLS is taken when offered and the
// server's certificate checked; a tenant's SMTP server in the platform's own network is refused
// unless CHANNEL_ALLOW_PRIVATE=1. The platform's verification codes to mail go over SMTP_URL.
// The password reaches neither the log nor the outbox.
import { Readable } from 'node:stream';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../server/config';
import { attemptsOf, deliveryRound, onlyChannel, outboxOf, raiseAlarm } from './channel-helpers';
import { secretsIn, startServer, type TestServer } from './harness';

const MAIL_PASSWORD = 'smtp-Pa55word-for-alarms';
const ACCOUNT = 'alarm@yunlian-iot.example.com';

interface ReceivedMail {
  from: string;
  to: string[];
  user: string;
  raw: string;
}

interface MailServer {
  port: number;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/** A local SMTP server: accepts the channel's account and password, keeps every message as received. */
async function startMailServer(options: SMTPServerOptions = {}): Promise<MailServer> {
  const received: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === ACCOUNT && auth.password === MAIL_PASSWORD) callback(null, { user: auth.username });
      else callback(new Error('535 Authentication failed'));
    },
    onData(stream: Readable, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          user: String(session.user ?? ''),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
    ...options,
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const address = smtp.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    received,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

/** Decodes RFC 2047 words (=?UTF-8?Q?…?= / =?UTF-8?B?…?=), joining adjacent ones byte-wise. */
function decodeWords(value: string): string {
  const parts = value.split(/(=\?UTF-8\?[QB]\?[^?]*\?=)/i).filter((part, index, all) => !(part.trim() === '' && index > 0 && index < all.length - 1));
  let bytes: Buffer[] = [];
  let text = '';
  const flush = () => {
    text += Buffer.concat(bytes).toString('utf8');
    bytes = [];
  };
  for (const part of parts) {
    const word = /^=\?UTF-8\?([QB])\?([^?]*)\?=$/i.exec(part);
    if (!word) {
      flush();
      text += part;
    } else if (word[1].toUpperCase() === 'B') bytes.push(Buffer.from(word[2], 'base64'));
    else bytes.push(Buffer.from(word[2].replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1'));
  }
  flush();
  return text;
}

/** The message's headers and its plain text body, decoded as its Content-Transfer-Encoding says. */
function readMail(raw: string): { headers: Record<string, string>; text: string } {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = rest.join('\r\n\r\n');
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const text =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? Buffer.from(body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8')
        : body;
  return { headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, decodeWords(value)])), text: text.replace(/\r\n/g, '\n') };
}

let server: TestServer;
let tadmin: string;
let mail: MailServer;
let channel: { code: string; id: number };
const env = { CHANNEL_DELIVERY: 'send', CHANNEL_ALLOW_PRIVATE: '1' };

beforeAll(async () => {
  server = await startServer();
  tadmin = await server.login('tadmin');
  mail = await startMailServer();
  channel = await onlyChannel(server, tadmin, {
    name: '渠道测试告警邮箱',
    channelType: 'mail',
    smtpHost: '127.0.0.1',
    smtpPort: mail.port,
    smtpTls: false,
    mailAccount: ACCOUNT,
    mailPassword: MAIL_PASSWORD,
    sender: ACCOUNT,
    template: '${姓名}，您好：\n\n${标题}\n${内容}\n\n告警时间：${时间}',
  });
});
afterAll(async () => {
  await mail.close();
  expect(secretsIn(server.logs, new Set([MAIL_PASSWORD]))).toEqual([]);
  await server.close();
});

describe('mail', () => {
  it('an alarm’s mail arrives at the SMTP server with its text, from the channel’s sender and account', async () => {
    await raiseAlarm(server, tadmin, ['mail']);
    const rows = await outboxOf(server, channel.id);
    const row = rows.find((one) => one.target === 'tadmin@example.com')!;
    expect(row).toMatchObject({ channel: 'mail', delivery_state: 'pending' });
    expect(JSON.stringify(rows)).not.toContain(MAIL_PASSWORD);

    expect(await deliveryRound(server, env)).toBe(rows.length);
    const received = mail.received.find((one) => one.to.includes('tadmin@example.com'))!;
    expect(received).toMatchObject({ from: ACCOUNT, user: ACCOUNT });
    const message = readMail(received.raw);
    expect(message.text.trim()).toBe(row.content.trim());
    expect(message.text).toMatch(/^\S+，您好：\n\n/);
    expect(message.text).toContain('渠道发送测试');
    expect(message.headers.subject).toBe(row.content.split('\n')[0]);
    expect(message.headers.from).toContain(ACCOUNT);
    expect((await outboxOf(server, channel.id)).every((one) => one.delivery_state === 'sent')).toBe(true);
  });

  it('a server that refuses the mail is a failed attempt with its reply, tried again later', async () => {
    const refusing = await startMailServer({
      authOptional: true,
      onRcptTo(address, _session, callback) {
        callback(Object.assign(new Error(`Mailbox ${address.address} unavailable`), { responseCode: 550 }));
      },
    });
    await server.db.query("UPDATE notification_channel SET settings = settings || jsonb_build_object('smtpPort', $2::int) WHERE id = $1", [channel.id, refusing.port]);
    try {
      expect((await server.call('notification.channel.test', { code: channel.code, target: 'duty@example.com' }, { token: tadmin })).code).toBe('200');
      expect(await deliveryRound(server, env)).toBe(1);
      const row = (await outboxOf(server, channel.id)).at(-1)!;
      expect(row).toMatchObject({ target: 'duty@example.com', delivery_state: 'pending', attempts: 1 });
      expect(await attemptsOf(server, row.id)).toEqual([['failed', expect.stringMatching(/^邮件服务器拒绝：550 Mailbox duty@example\.com unavailable/)]]);
    } finally {
      await refusing.close();
    }
  });

  it('STARTTLS is taken when the server offers it, and a certificate nobody vouches for fails the attempt', async () => {
    // smtp-server offers STARTTLS with its built-in self-signed certificate.
    const offering = await startMailServer({ disabledCommands: [], authOptional: true });
    await server.db.query("UPDATE notification_channel SET settings = settings || jsonb_build_object('smtpPort', $2::int) WHERE id = $1", [channel.id, offering.port]);
    try {
      server.advance(3600);
      expect((await server.call('notification.channel.test', { code: channel.code, target: 'tls@example.com' }, { token: await server.login('tadmin') })).code).toBe('200');
      expect(await deliveryRound(server, env)).toBeGreaterThanOrEqual(1);
      const row = (await outboxOf(server, channel.id)).at(-1)!;
      expect(row).toMatchObject({ target: 'tls@example.com', delivery_state: 'pending' });
      expect(row.last_error).toMatch(/certificate/i);
      expect(offering.received).toEqual([]);
    } finally {
      await offering.close();
    }
  });

  it('a tenant’s SMTP server in the platform’s own network is refused unless CHANNEL_ALLOW_PRIVATE=1', async () => {
    await server.db.query("UPDATE notification_channel SET settings = settings || jsonb_build_object('smtpPort', $2::int) WHERE id = $1", [channel.id, mail.port]);
    const before = mail.received.length;
    tadmin = await server.login('tadmin');
    expect((await server.call('notification.channel.test', { code: channel.code, target: 'inner@example.com' }, { token: tadmin })).code).toBe('200');
    // Drain the earlier rows still waiting for their retry first.
    server.advance(3600);
    await deliveryRound(server, { CHANNEL_DELIVERY: 'send' });
    const row = (await outboxOf(server, channel.id)).at(-1)!;
    expect(row).toMatchObject({ target: 'inner@example.com', delivery_state: 'failed', attempts: 1, last_error: '邮件服务器 127.0.0.1 指向内网地址，已拒绝' });
    expect(mail.received.length).toBe(before);
  });
});

describe('verification codes to mail', () => {
  const smtpUrl = () => `smtp://${encodeURIComponent(ACCOUNT)}:${encodeURIComponent(MAIL_PASSWORD)}@127.0.0.1:${mail.port}`;
  const codeRows = (target: string) =>
    server.db.query<{ id: number; delivery_state: string; last_error: string }>("SELECT id, delivery_state, last_error FROM outbox WHERE target = $1 AND code <> '' ORDER BY id", [target]);

  it('go over SMTP_URL from SMTP_FROM, the code in the text', async () => {
    server.advance(3600);
    await deliveryRound(server, env);
    const sent = await server.call('verification.mail.send', { target: 'tadmin@example.com', ...(await server.solvedCaptcha()) });
    expect(sent.code, sent.message).toBe('200');
    const code = await server.latestCode('tadmin@example.com');
    const [row] = await codeRows('tadmin@example.com');
    expect(row.delivery_state).toBe('pending');
    const before = mail.received.length;
    expect(await deliveryRound(server, { CHANNEL_DELIVERY: 'send', SMTP_URL: smtpUrl(), SMTP_FROM: 'noreply@yunlian-iot.example.com' })).toBe(1);
    const received = mail.received.slice(before);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ from: 'noreply@yunlian-iot.example.com', to: ['tadmin@example.com'], user: ACCOUNT });
    const message = readMail(received[0].raw);
    expect(message.headers.subject).toBe('验证码');
    expect(message.text).toContain(`您的邮箱验证码为 ${code}`);
    expect((await codeRows('tadmin@example.com'))[0].delivery_state).toBe('sent');
  });

  it('a code that expired before it could be sent is given up, not sent late', async () => {
    server.advance(3600);
    const sent = await server.call('verification.mail.send', { target: 'tadmin@example.com', ...(await server.solvedCaptcha()) });
    expect(sent.code, sent.message).toBe('200');
    await server.latestCode('tadmin@example.com');
    server.advance(301);
    const before = mail.received.length;
    expect(await deliveryRound(server, { CHANNEL_DELIVERY: 'send', SMTP_URL: smtpUrl(), SMTP_FROM: 'noreply@yunlian-iot.example.com' })).toBe(1);
    expect((await codeRows('tadmin@example.com')).at(-1)).toMatchObject({ delivery_state: 'failed', last_error: '验证码已过期，不再发送' });
    expect(mail.received.length).toBe(before);
  });
});

describe('configuration', () => {
  it('refuses at start what it cannot use, and takes the sender from SMTP_URL’s user', () => {
    expect(() => configFromEnv({ CHANNEL_DELIVERY: 'yes' })).toThrow('CHANNEL_DELIVERY must be outbox or send');
    expect(() => configFromEnv({ SMTP_URL: 'http://mail.example.com' })).toThrow('SMTP_URL must start with smtp://');
    expect(() => configFromEnv({ SMTP_URL: 'smtps://postmaster:pw@smtp.example.com:465' })).toThrow('SMTP_FROM must be');
    expect(() => configFromEnv({ DINGTALK_API_BASE: 'https://gateway.example.com/robot?x=1' })).toThrow('DINGTALK_API_BASE must be an address');
    expect(configFromEnv({ SMTP_URL: 'smtps://noreply%40iot.example.com:pw@smtp.example.com:465' })).toMatchObject({ smtpFrom: 'noreply@iot.example.com' });
    expect(configFromEnv({ ALIYUN_SMS_ENDPOINT: 'http://127.0.0.1:8080/sms/' }).channelEndpoints.aliyunSms).toBe('http://127.0.0.1:8080/sms');
    expect(configFromEnv({})).toMatchObject({ channelDelivery: 'outbox', channelAllowPrivate: false, channelEndpoints: { dingtalk: 'https://oapi.dingtalk.com', wechat: 'https://api.weixin.qq.com' } });
  });
});
