// Delivery after the fact (issues 22 and 23). The outbox's channel messages are sent by the delivery
// loop with retries and a log: a failed send is tried again after a pause, given up after the last
// attempt, every attempt logged; a channel that hangs holds up nothing (a report is answered at
// once). A tenant's webhooks get its alarms and device events over HTTP: signed with the webhook's
// secret (HMAC-SHA256 of the body), retried after a 500, each attempt in the delivery log; another
// tenant's webhook is "404" and only the tenant's administrator manages them.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_POLICY, runQueue, startDeliveryLoop, type AttemptOutcome, type DeliveryPolicy } from '../../server/ingest/delivery';
import { outboxQueue, type ChannelMessage } from '../../server/ingest/outboxDelivery';
import { isPrivateAddress, webhookQueue } from '../../server/ingest/webhookDelivery';
import { checkWebhookUrl } from '../../server/operations/frame/webhooks';
import { ApiFailure } from '../../server/http/envelope';
import type { DeviceCredential } from '../../server/operations/devices/credentials';
import type { Page } from '../../server/core/listQuery';
import type { OutboxDeliveryRecord } from '../../server/operations/notification/deliveries';
import type { IssuedWebhookSecret, WebhookDeliveryRecord, WebhookRecord } from '../../server/operations/frame/webhooks';
import { startServer, type TestServer } from './harness';

let server: TestServer;
let tadmin: string;
let badmin: string;
let tuser: string;
let device: { code: string; secret: string };
const ROBOT = 'https://oapi.dingtalk.com/robot/send?access_token=delivery-test';
const policy: DeliveryPolicy = { ...DELIVERY_POLICY, timeoutMs: 400 };

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}
let receiver: Server;
let hookUrl: string;
const received: Received[] = [];
/** What the receiver answers next: a status, or 'hang' (never answers). */
const answers: Array<number | 'hang'> = [];

beforeAll(async () => {
  // The receiver is on 127.0.0.1: this server lets webhooks point inward (WEBHOOK_ALLOW_PRIVATE=1).
  server = await startServer({ config: { webhookAllowPrivate: true } });
  [tadmin, badmin, tuser] = await Promise.all([server.login('tadmin'), server.login('badmin'), server.login('tuser')]);
  const [row] = await server.db.query<{ code: string }>("SELECT code FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL ORDER BY code LIMIT 1");
  const issued = await server.call<DeviceCredential & { secret: string }>('device.credential.reset', { code: row.code }, { token: tadmin });
  device = { code: row.code, secret: issued.data!.secret };
  await server.db.query(
    `INSERT INTO notification_channel (code, tenant_code, name, channel_type, settings, template, created_by)
     VALUES ('QD900000002', 'T0001', '投递测试机器人', 'dingtalk', $1, '【告警】\${标题}：\${内容}', 'test')`,
    [JSON.stringify({ webhook: ROBOT })],
  );
  const rule = await server.call(
    'alarm.config.insert',
    { rule: { name: '投递测试', alarmType: 'threshold', level: 2, metric: 'turbidity', operator: 'gt', threshold: 50, notifyChannels: ['dingtalk'] } },
    { token: tadmin },
  );
  expect(rule.code, rule.message).toBe('200');

  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = answers.shift() ?? 200;
      if (answer === 'hang') return;
      response.writeHead(answer, { 'content-type': 'text/plain' }).end(answer === 200 ? 'ok' : 'boom');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const address = receiver.address();
  hookUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hooks/iot`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await server.close();
});

async function report(body: object): Promise<{ code: string; data: { alarms: Array<{ change: string; alarmCode: string }> } }> {
  const reply = await server.app.inject({
    method: 'POST',
    url: '/api/device/telemetry/_report',
    headers: { 'x-device-code': device.code, 'x-device-secret': device.secret, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  return reply.json();
}

/** A breach and a recovery of the test rule: one alarm raised (a robot message, an alarm.raised event), then recovered. */
async function crossing(): Promise<string> {
  const raised = await report({ metrics: { turbidity: 70 } });
  expect(raised.code).toBe('200');
  const alarm = raised.data.alarms.find((one) => one.change === 'raised');
  expect(alarm).toBeDefined();
  expect((await report({ metrics: { turbidity: 10 } })).code).toBe('200');
  return alarm!.alarmCode;
}

const outboxRows = () =>
  server.db.query<{ id: number; delivery_state: string; attempts: number; last_error: string }>(
    'SELECT id, delivery_state, attempts, last_error FROM outbox WHERE target = $1 ORDER BY id',
    [ROBOT],
  );

describe('the outbox: retries and a delivery log', () => {
  it('a failed send is tried again after a pause, logged each time, and given up after the last attempt', async () => {
    const outcomes: AttemptOutcome[] = [];
    const sent: ChannelMessage[] = [];
    // The tenant's other robots get the alarm too: they are sent at once; this one is scripted.
    const transport = async (message: ChannelMessage): Promise<AttemptOutcome> => {
      if (message.target !== ROBOT) return { ok: true, status: null, error: '' };
      sent.push(message);
      return outcomes.shift() ?? { ok: true, status: null, error: '' };
    };
    const round = () => runQueue(server.db, outboxQueue(transport), server.now, policy);
    await crossing();
    const [message] = await outboxRows();
    expect(message).toMatchObject({ delivery_state: 'pending', attempts: 0 });

    outcomes.push({ ok: false, status: 502, error: '钉钉返回 502' });
    expect(await round()).toBeGreaterThanOrEqual(1);
    expect((await outboxRows())[0]).toMatchObject({ delivery_state: 'pending', attempts: 1, last_error: '钉钉返回 502' });
    // Not due yet: nothing is sent.
    expect(await round()).toBe(0);
    server.advance(DELIVERY_POLICY.retryDelaysSeconds[0] + 1);
    outcomes.push({ ok: false, status: null, error: 'connection reset' });
    expect(await round()).toBe(1);
    server.advance(DELIVERY_POLICY.retryDelaysSeconds[1] + 1);
    expect(await round()).toBe(1);
    expect((await outboxRows())[0]).toMatchObject({ delivery_state: 'sent', attempts: 3 });
    expect(sent.map((one) => one.target)).toEqual([ROBOT, ROBOT, ROBOT]);
    expect(sent[0].content).toMatch(/^【告警】投递测试：/);

    // The log, as the tenant's administrator reads it.
    const page = await server.call<Page<OutboxDeliveryRecord>>('notification.delivery.page', { channel: 'dingtalk' }, { token: tadmin });
    expect(page.code, page.message).toBe('200');
    const record = page.data!.records.find((one) => one.id === message.id);
    expect(record).toMatchObject({ state: 'sent', attempts: 3, channelName: '钉钉', tenantCode: 'T0001' });
    expect(record!.attemptLog.map((one) => [one.attempt, one.outcome, one.error])).toEqual([
      [1, 'failed', '钉钉返回 502'],
      [2, 'failed', 'connection reset'],
      [3, 'sent', ''],
    ]);
    // Another tenant's administrator does not see it; an ordinary user may not read the log.
    const other = await server.call<Page<OutboxDeliveryRecord>>('notification.delivery.page', {}, { token: badmin });
    expect(other.data!.records.some((one) => one.id === message.id)).toBe(false);
    expect((await server.call('notification.delivery.page', {}, { token: tuser })).code).toBe('403');

    // A channel that always fails: given up after the last attempt, and never tried again.
    await crossing();
    let failed = 0;
    const failing = async (message: ChannelMessage): Promise<AttemptOutcome> => {
      if (message.target !== ROBOT) return { ok: true, status: null, error: '' };
      failed += 1;
      return { ok: false, status: 500, error: 'down' };
    };
    for (let attempt = 1; attempt <= DELIVERY_POLICY.attempts; attempt += 1) {
      await runQueue(server.db, outboxQueue(failing), server.now, policy);
      expect(failed).toBe(attempt);
      server.advance(Math.max(...DELIVERY_POLICY.retryDelaysSeconds) + 1);
    }
    expect((await outboxRows()).at(-1)).toMatchObject({ delivery_state: 'failed', attempts: DELIVERY_POLICY.attempts });
    expect(await runQueue(server.db, outboxQueue(failing), server.now, policy)).toBe(0);
  });

  it('a channel that hangs blocks nothing: reports are answered while its send waits for the time limit', async () => {
    await crossing();
    let hung = 0;
    const hanging = async (message: ChannelMessage): Promise<AttemptOutcome> => {
      if (message.target !== ROBOT) return { ok: true, status: null, error: '' };
      hung += 1;
      return new Promise<AttemptOutcome>(() => undefined);
    };
    const round = runQueue(server.db, outboxQueue(hanging), server.now, { ...policy, timeoutMs: 3000 });
    while (hung === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const started = Date.now();
    const answered = await report({ metrics: { turbidity: 20 }, batteryLevel: 66 });
    expect(answered.code).toBe('200');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await round).toBeGreaterThanOrEqual(1);
    const [last] = await server.db.query<{ delivery_state: string; last_error: string }>(
      'SELECT delivery_state, last_error FROM outbox WHERE target = $1 ORDER BY id DESC LIMIT 1',
      [ROBOT],
    );
    expect(last).toEqual({ delivery_state: 'pending', last_error: '超时（3000 ms 内无应答）' });
  });
});

describe('the delivery log of other channel messages', () => {
  it('a channel’s test send is in its tenant’s log, pending until the loop sends it', async () => {
    const admin = await server.login('tadmin');
    const tested = await server.call('notification.channel.test', { code: 'QD900000002' }, { token: admin });
    expect(tested.code, tested.message).toBe('200');
    const page = await server.call<Page<OutboxDeliveryRecord>>('notification.delivery.page', { state: 'pending' }, { token: admin });
    expect(page.data!.records[0]).toMatchObject({ channel: 'dingtalk', target: ROBOT, tenantCode: 'T0001', state: 'pending', attempts: 0, attemptLog: [] });
    expect(page.data!.records[0].content).toMatch(/^【告警】测试消息：/);
    expect((await server.call<Page<OutboxDeliveryRecord>>('notification.delivery.page', { state: 'pending' }, { token: await server.login('badmin') })).data!.records.some((one) => one.target === ROBOT)).toBe(false);
  });
});

describe('webhooks', () => {
  let hook: IssuedWebhookSecret;
  // The outbox's tests moved the clock past the sessions' lifetime.
  beforeAll(async () => {
    [tadmin, badmin, tuser] = await Promise.all([server.login('tadmin'), server.login('badmin'), server.login('tuser')]);
  });

  it('only the tenant administrator registers one; the secret is answered once', async () => {
    const param = { name: '告警回调', url: hookUrl, events: ['alarm.raised', 'device.offline'] };
    expect((await server.call('openApi.webhook.insert', param, { token: tuser })).code).toBe('403');
    expect(await server.call('openApi.webhook.insert', { ...param, url: 'ftp://127.0.0.1/x' }, { token: tadmin })).toMatchObject({ code: '400' });
    expect(await server.call('openApi.webhook.insert', { ...param, events: ['device.deleted'] }, { token: tadmin })).toMatchObject({ code: '400' });
    const inserted = await server.call<IssuedWebhookSecret>('openApi.webhook.insert', param, { token: tadmin });
    expect(inserted.code, inserted.message).toBe('200');
    hook = inserted.data!;
    expect(hook).toEqual({ code: expect.stringMatching(/^wh_[0-9a-f]{16}$/), secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/) });
    const page = await server.call<Page<WebhookRecord>>('openApi.webhook.page', {}, { token: tadmin });
    expect(page.data!.records).toEqual([expect.objectContaining({ code: hook.code, name: '告警回调', url: hookUrl, eventNames: '告警产生、设备离线', enabled: true })]);
    expect(JSON.stringify(page.data)).not.toContain(hook.secret);
    const [stored] = await server.db.query<{ secret_ciphertext: string }>('SELECT secret_ciphertext FROM webhook WHERE code = $1', [hook.code]);
    expect(stored.secret_ciphertext).not.toContain(hook.secret);
  });

  it('another tenant’s webhook is 404 to its administrator, and its log is not theirs', async () => {
    for (const [name, param] of [
      ['openApi.webhook.modify', { code: hook.code, name: 'x', url: hookUrl, events: ['alarm.raised'] }],
      ['openApi.webhook.delete', { code: hook.code }],
      ['openApi.webhook.secret.reset', { code: hook.code }],
    ] as const) {
      expect(await server.call(name, param, { token: badmin })).toMatchObject({ code: '404', message: 'Webhook 不存在' });
    }
    expect((await server.call<Page<WebhookRecord>>('openApi.webhook.page', {}, { token: badmin })).data!.records).toEqual([]);
    expect((await server.call<Page<WebhookDeliveryRecord>>('openApi.webhook.delivery.page', { webhookCode: hook.code }, { token: badmin })).data!.total).toBe(0);
  });

  it('a delivery is signed with the secret, retried after a 500, and logged with each outcome', async () => {
    const round = () => runQueue(server.db, webhookQueue(server.db, { allowPrivate: true }), server.now, policy);
    const alarmCode = await crossing();
    // alarm.raised is subscribed, alarm.recovered is not: one delivery.
    answers.push(500);
    expect(await round()).toBe(1);
    server.advance(DELIVERY_POLICY.retryDelaysSeconds[0] + 1);
    expect(await round()).toBe(1);
    expect(received).toHaveLength(2);
    const [first, second] = received;
    for (const request of received) {
      const expected = `sha256=${createHmac('sha256', hook.secret).update(request.body).digest('hex')}`;
      expect(request.headers['x-iot-signature']).toBe(expected);
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['x-iot-event']).toBe('alarm.raised');
      expect(request.headers['x-iot-webhook']).toBe(hook.code);
    }
    expect(second.headers['x-iot-delivery']).toBe(first.headers['x-iot-delivery']);
    expect([first.headers['x-iot-attempt'], second.headers['x-iot-attempt']]).toEqual(['1', '2']);
    expect(second.body).toBe(first.body);
    expect(JSON.parse(first.body)).toEqual({
      eventId: expect.stringMatching(/^\d+$/),
      event: 'alarm.raised',
      tenantCode: 'T0001',
      organizationCode: expect.any(String),
      occurredAt: expect.any(String),
      data: { deviceCode: device.code, alarmCode },
    });

    const log = await server.call<Page<WebhookDeliveryRecord>>('openApi.webhook.delivery.page', { webhookCode: hook.code }, { token: tadmin });
    expect(log.code, log.message).toBe('200');
    expect(log.data!.records).toHaveLength(1);
    const [delivery] = log.data!.records;
    expect(delivery).toMatchObject({ id: Number(first.headers['x-iot-delivery']), event: 'alarm.raised', eventName: '告警产生', state: 'sent', attempts: 2, lastStatus: 200, body: first.body });
    expect(delivery.attemptLog.map((one) => [one.attempt, one.outcome, one.statusCode, one.error])).toEqual([
      [1, 'failed', 500, 'HTTP 500'],
      [2, 'sent', 200, ''],
    ]);
    expect((await server.call<Page<WebhookRecord>>('openApi.webhook.page', {}, { token: tadmin })).data!.records[0]).toMatchObject({ deliveredCount: 1, failedCount: 0, lastState: 'sent' });
  });

  it('two instances sending at once send each delivery once; the loop of the server process sends by itself', async () => {
    received.length = 0;
    for (let i = 0; i < 4; i += 1) await crossing();
    const [{ n: due }] = await server.db.query<{ n: number }>("SELECT count(*)::int AS n FROM webhook_delivery WHERE state = 'pending'");
    expect(due).toBe(4);
    const small = { ...policy, batch: 3 };
    const rounds = await Promise.all([runQueue(server.db, webhookQueue(server.db, { allowPrivate: true }), server.now, small), runQueue(server.db, webhookQueue(server.db, { allowPrivate: true }), server.now, small)]);
    expect(rounds[0] + rounds[1]).toBe(4);
    const ids = received.map((request) => request.headers['x-iot-delivery']);
    expect(new Set(ids).size).toBe(4);
    expect(ids).toHaveLength(4);

    // The loop main.ts starts: a new event reaches the receiver without a round being asked for.
    const loop = startDeliveryLoop(server.db, [webhookQueue(server.db, { allowPrivate: true })], 0.2, server.now, () => undefined);
    try {
      await crossing();
      const limit = Date.now() + 10_000;
      while (received.length < 5 && Date.now() < limit) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(received).toHaveLength(5);
    } finally {
      await loop.stop();
    }
  });

  it('the open API’s reference describes the deliveries, their headers and retries', async () => {
    const reply = await server.app.inject({ method: 'GET', url: '/api/docs/json' });
    const description = reply.json<{ info: { description: string } }>().info.description;
    expect(description).toContain('## Webhook（事件推送）');
    for (const header of ['x-iot-signature', 'x-iot-event', 'x-iot-webhook', 'x-iot-delivery', 'x-iot-attempt']) expect(description).toContain(header);
    expect(description).toContain('按 30、120、600、1800 秒后重试，共 5 次');
  });

  it('does not post into the platform’s own network unless allowed: refused when registered, and when sent', async () => {
    const refusal = (url: string) => {
      try {
        checkWebhookUrl(url, false);
        return null;
      } catch (error) {
        return error instanceof ApiFailure ? `${error.code} ${error.message}` : String(error);
      }
    };
    expect(refusal('http://127.0.0.1:8080/hook')).toBe('400 参数错误：url（127.0.0.1 属于内网地址，平台不向内网投递）');
    expect(refusal('http://[::1]/hook')).toBe('400 参数错误：url（::1 属于内网地址，平台不向内网投递）');
    expect(refusal('http://localhost/hook')).toBe('400 参数错误：url（localhost 属于内网地址，平台不向内网投递）');
    expect(refusal('http://169.254.169.254/latest/meta-data')).toBe('400 参数错误：url（169.254.169.254 属于内网地址，平台不向内网投递）');
    expect(refusal('https://hooks.example.com/iot')).toBeNull();
    expect(refusal('http://user:pw@hooks.example.com/iot')).toBe('400 参数错误：url');
    expect(checkWebhookUrl('http://127.0.0.1:8080/hook', true)).toBe('http://127.0.0.1:8080/hook');
    expect(['10.1.2.3', '172.20.0.1', '192.168.1.1', '100.64.0.1', '::ffff:127.0.0.1', 'fd00::1', 'fe80::1'].filter((address) => !isPrivateAddress(address))).toEqual([]);
    expect(['8.8.8.8', '2001:4860:4860::8888', '172.32.0.1'].filter(isPrivateAddress)).toEqual([]);

    // A delivery to an inward address, sent by a platform that does not allow it: refused, nothing reaches the receiver.
    received.length = 0;
    await crossing();
    expect(await runQueue(server.db, webhookQueue(server.db), server.now, policy)).toBe(1);
    expect(received).toEqual([]);
    const [refused] = (await server.call<Page<WebhookDeliveryRecord>>('openApi.webhook.delivery.page', { webhookCode: hook.code }, { token: tadmin })).data!.records;
    expect(refused).toMatchObject({ state: 'pending', attempts: 1, lastError: '目标地址 127.0.0.1 属于内网，不投递' });
    server.advance(DELIVERY_POLICY.retryDelaysSeconds[0] + 1);
    expect(await runQueue(server.db, webhookQueue(server.db, { allowPrivate: true }), server.now, policy)).toBe(1);
    expect(received).toHaveLength(1);
  });

  it('an endpoint that hangs fails its attempt at the time limit; a reset secret signs the next delivery; a deleted webhook takes its log', async () => {
    const round = () => runQueue(server.db, webhookQueue(server.db, { allowPrivate: true }), server.now, policy);
    received.length = 0;
    await crossing();
    answers.push('hang');
    expect(await round()).toBe(1);
    const [timedOut] = (await server.call<Page<WebhookDeliveryRecord>>('openApi.webhook.delivery.page', { webhookCode: hook.code }, { token: tadmin })).data!.records;
    expect(timedOut).toMatchObject({ state: 'pending', attempts: 1, lastError: '超时（400 ms 内无应答）', nextAttemptTime: expect.any(String) });

    const reset = await server.call<IssuedWebhookSecret>('openApi.webhook.secret.reset', { code: hook.code }, { token: tadmin });
    expect(reset.code, reset.message).toBe('200');
    expect(reset.data!.secret).not.toBe(hook.secret);
    server.advance(DELIVERY_POLICY.retryDelaysSeconds[0] + 1);
    expect(await round()).toBe(1);
    const retried = received.at(-1)!;
    expect(retried.headers['x-iot-signature']).toBe(`sha256=${createHmac('sha256', reset.data!.secret).update(retried.body).digest('hex')}`);

    // Disabled: no new deliveries. Deleted: gone, with its log.
    const off = await server.call('openApi.webhook.modify', { code: hook.code, name: '告警回调', url: hookUrl, events: ['alarm.raised'], enabled: false }, { token: tadmin });
    expect(off.code, off.message).toBe('200');
    const before = (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_delivery')).at(0)!.n;
    await crossing();
    expect((await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_delivery')).at(0)!.n).toBe(before);
    expect((await server.call('openApi.webhook.delete', { code: hook.code }, { token: tadmin })).code).toBe('200');
    expect((await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_delivery')).at(0)!.n).toBe(0);
    expect(await server.call('openApi.webhook.delete', { code: hook.code }, { token: tadmin })).toMatchObject({ code: '404' });
  });
  it('a delivery queued before its webhook was disabled is given up as 已停用; a tenant has at most 20 webhooks', async () => {
    const param = { name: '停用测试', url: hookUrl, events: ['alarm.raised'] };
    const made = await server.call<IssuedWebhookSecret>('openApi.webhook.insert', param, { token: tadmin });
    expect(made.code, made.message).toBe('200');
    await crossing();
    const off = await server.call('openApi.webhook.modify', { ...param, code: made.data!.code, enabled: false }, { token: tadmin });
    expect(off.code, off.message).toBe('200');
    received.length = 0;
    expect(await runQueue(server.db, webhookQueue(server.db, { allowPrivate: true }), server.now, policy)).toBe(1);
    expect(received).toEqual([]);
    const [given] = (await server.call<Page<WebhookDeliveryRecord>>('openApi.webhook.delivery.page', { webhookCode: made.data!.code }, { token: tadmin })).data!.records;
    expect(given).toMatchObject({ state: 'failed', attempts: 1, lastError: 'Webhook 已停用' });

    for (let n = 2; n <= 20; n += 1) expect((await server.call('openApi.webhook.insert', { ...param, name: `上限测试 ${n}` }, { token: tadmin })).code).toBe('200');
    expect(await server.call('openApi.webhook.insert', { ...param, name: '上限测试 21' }, { token: tadmin })).toMatchObject({ code: '400', message: '每个租户最多 20 个 Webhook' });
    // Another tenant's count is its own.
    expect((await server.call('openApi.webhook.insert', { ...param, name: '另一租户' }, { token: badmin })).code).toBe('200');
  });
});
