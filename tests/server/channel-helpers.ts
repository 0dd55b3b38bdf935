// Shared by the channel-*.test.ts files (issue 31, channels that really send): a receiver on
// 127.0.0.1 that stands in for a provider's API, a tenant channel saved through 发送配置, an alarm
// raised by a device's report, and rounds of the outbox's delivery loop through the real transports.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { expect } from 'vitest';
import { configFromEnv } from '../../server/config';
import { openChannelSecrets } from '../../server/domain/channelSecrets';
import type { ChannelSecrets } from '../../server/domain/notificationChannels';
import { DELIVERY_POLICY, runQueue, type DeliveryPolicy } from '../../server/ingest/delivery';
import { channelTransport } from '../../server/ingest/channels';
import { outboxQueue } from '../../server/ingest/outboxDelivery';
import type { DeviceCredential } from '../../server/operations/devices/credentials';
import { secretCipherKey } from '../../server/security/secrets';
import type { TestServer } from './harness';

export interface ReceivedRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status: number;
  body: unknown;
}

export interface Receiver {
  /** http://127.0.0.1:<port> */
  base: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 answering each request with what `answer` says (JSON). */
export async function startReceiver(answer: (request: ReceivedRequest) => Answer): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const one = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(one);
      const { status, body } = answer(one);
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    base: `http://127.0.0.1:${port}`,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Saves a channel of the tenant through 发送配置 and disables the tenant's others, so an alarm goes through this one only. */
export async function onlyChannel(server: TestServer, token: string, channel: Record<string, unknown>): Promise<{ code: string; id: number }> {
  const inserted = await server.call<{ code: string }>('notification.channel.insert', { channel }, { token });
  expect(inserted.code, inserted.message).toBe('200');
  const code = inserted.data!.code;
  const [row] = await server.db.query<{ id: number; tenant_code: string }>('SELECT id, tenant_code FROM notification_channel WHERE code = $1', [code]);
  await server.db.query('UPDATE notification_channel SET enabled = false WHERE tenant_code = $1 AND id <> $2', [row.tenant_code, row.id]);
  return { code, id: row.id };
}

let rules = 0;

/** A new rule of the tenant's admin on turbidity over 50 telling `channels`, and a device's report past it: answers the alarm's code. */
export async function raiseAlarm(server: TestServer, token: string, channels: string[]): Promise<string> {
  const [device] = await server.db.query<{ code: string }>("SELECT code FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL ORDER BY code LIMIT 1");
  const issued = await server.call<DeviceCredential & { secret: string }>('device.credential.reset', { code: device.code }, { token });
  expect(issued.code, issued.message).toBe('200');
  const rule = await server.call('alarm.config.insert', { rule: { name: `渠道发送测试 ${(rules += 1)}`, alarmType: 'threshold', level: 2, metric: 'turbidity', operator: 'gt', threshold: 50, notifyChannels: channels } }, { token });
  expect(rule.code, rule.message).toBe('200');
  const reply = await server.app.inject({
    method: 'POST',
    url: '/api/device/telemetry/_report',
    headers: { 'x-device-code': device.code, 'x-device-secret': issued.data!.secret, 'content-type': 'application/json' },
    payload: JSON.stringify({ metrics: { turbidity: 77 } }),
  });
  const body = reply.json<{ code: string; data: { alarms: Array<{ change: string; alarmCode: string }> } }>();
  expect(body.code).toBe('200');
  const raised = body.data.alarms.find((alarm) => alarm.change === 'raised');
  expect(raised).toBeDefined();
  return raised!.alarmCode;
}

/** The delivery policy of these tests: the schedule as configured, a shorter time limit. */
export const policy: DeliveryPolicy = { ...DELIVERY_POLICY, timeoutMs: 5000 };

/** One round of the outbox's delivery loop through the transports the environment `env` configures. */
export function deliveryRound(server: TestServer, env: NodeJS.ProcessEnv): Promise<number> {
  const config = configFromEnv(env, { now: server.now });
  return runQueue(server.db, outboxQueue(channelTransport(server.db, config)), server.now, policy);
}

export interface OutboxRow {
  id: number;
  channel: string;
  target: string;
  content: string;
  delivery_state: string | null;
  attempts: number;
  last_error: string;
}

/** The outbox rows a channel was sent for, oldest first. */
export function outboxOf(server: TestServer, channelId: number): Promise<OutboxRow[]> {
  return server.db.query<OutboxRow>('SELECT id, channel, target, content, delivery_state, attempts, last_error FROM outbox WHERE channel_id = $1 ORDER BY id', [channelId]);
}

/** The delivery log of one outbox row: each attempt's outcome and error. */
export async function attemptsOf(server: TestServer, outboxId: number): Promise<Array<[string, string]>> {
  const rows = await server.db.query<{ outcome: string; error: string }>('SELECT outcome, error FROM outbox_attempt WHERE outbox_id = $1 ORDER BY id', [outboxId]);
  return rows.map((row) => [row.outcome, row.error]);
}

/** A channel's secrets as its transport opens them (the table holds them sealed: server/domain/channelSecrets.ts). */
export async function channelSecretsOf(server: TestServer, channelId: number): Promise<ChannelSecrets> {
  const [row] = await server.db.query<{ secrets: ChannelSecrets }>('SELECT secrets FROM notification_channel WHERE id = $1', [channelId]);
  if (!row) throw new Error(`no channel ${channelId}`);
  const opened = openChannelSecrets(await secretCipherKey(server.db), channelId, row.secrets);
  if ('unreadable' in opened) throw new Error(`channel ${channelId}: ${opened.unreadable} does not open`);
  return opened.secrets;
}
