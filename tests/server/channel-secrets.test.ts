// Notification channels' secrets sealed at rest (issue 30/31 follow-up). A saved channel's secrets
// are ciphertext in the table, bound to the channel and the field, with the console's mask beside
// them; the transports open them to sign and send (a receiver on 127.0.0.1 recomputes DingTalk's
// signature from the secret as typed); a row an earlier version wrote in the clear is sealed at
// start and still sends, once however many instances start together; a ciphertext copied to
// another channel or field does not open; the WeChat token is kept sealed too; the sealing of the
// open API's and the webhooks' secrets, moved to server/security/secrets.ts, still opens what was
// sealed before the move. None of these secrets reaches the log.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../server/config';
import type { Database } from '../../server/db/database';
import { openDatabase } from '../../server/openDatabase';
import type { PgliteDatabase } from '../../server/db/pglite';
import { openChannelSecrets, sealPlainChannels } from '../../server/domain/channelSecrets';
import { runQueue } from '../../server/ingest/delivery';
import { channelTransport } from '../../server/ingest/channels';
import { outboxQueue } from '../../server/ingest/outboxDelivery';
import { cipherKeyOf, openSecret, SEAL_BINDINGS, secretCipherKey } from '../../server/security/secrets';
import { channelSecretsOf, deliveryRound, policy, startReceiver, type Receiver, type ReceivedRequest } from './channel-helpers';
import { engine, postgresCluster, startServer, type TestServer } from './harness';

const DINGTALK_SECRET = 'SEC9d3f1a7c5e2b8d4f6a0c1e3b5d7f9a2c4e6b8d0f1a3c5e7b9d2f4a6c8e0b1d3f';
const OTHER_SECRET = 'SEC1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f2a4c6e8b0d1f3a5c7e9b2d4f6a8c0e1b3d';
const FRESH_SECRET = 'SEC0a2c4e6b8d1f3a5c7e9b0d2f4a6c8e1b3d5f7a9c0e2b4d6f8a1c3e5b7d9f0a2c';
const PLAIN_SECRET = 'SECplainFromAnEarlierVersion0123456789abcdef0123456789abcdef012345';
const APP_SECRET = '9a8b7c6d5e4f30211203f4e5d6c7b8a9';
const WECHAT_TOKEN = 'WX-SEALED-TOKEN-0001-abcdefghijklmnopqrstuvwxyz';
const WEBHOOK = (token: string) => `https://oapi.dingtalk.com/robot/send?access_token=${token}`;

let server: TestServer;
let tadmin: string;
let receiver: Receiver;
let env: NodeJS.ProcessEnv;

function answer(request: ReceivedRequest) {
  if (request.url.startsWith('/robot/send')) return { status: 200, body: { errcode: 0, errmsg: 'ok' } };
  if (request.url.startsWith('/wechat/cgi-bin/token')) return { status: 200, body: { access_token: WECHAT_TOKEN, expires_in: 7200 } };
  if (request.url.startsWith('/wechat/cgi-bin/message/template/send')) return { status: 200, body: { errcode: 0, errmsg: 'ok', msgid: 1 } };
  return { status: 404, body: {} };
}

beforeAll(async () => {
  server = await startServer();
  server.neverLogged(DINGTALK_SECRET, OTHER_SECRET, FRESH_SECRET, PLAIN_SECRET, APP_SECRET, WECHAT_TOKEN);
  tadmin = await server.login('tadmin');
  receiver = await startReceiver(answer);
  env = { CHANNEL_DELIVERY: 'send', DINGTALK_API_BASE: receiver.base, WECHAT_API_BASE: `${receiver.base}/wechat` };
});
afterAll(async () => {
  await receiver.close();
  await server.close();
});

/** DingTalk's check: sign = base64(HMAC-SHA256(secret, timestamp + "\n" + secret)), in the query. */
function signedWith(request: ReceivedRequest, secret: string): boolean {
  const query = new URL(request.url, 'http://receiver').searchParams;
  return query.get('sign') === createHmac('sha256', secret).update(`${query.get('timestamp') ?? ''}\n${secret}`).digest('base64');
}

/** The robot requests that came for the webhook with `token`. */
const robotRequests = (token: string) => receiver.received.filter((request) => new URL(request.url, 'http://receiver').searchParams.get('access_token') === token);

interface StoredRow {
  id: number;
  secrets: Record<string, string>;
  secret_masks: Record<string, string>;
  secrets_sealed: boolean;
}

const storedRow = async (db: Database, code: string) =>
  (await db.query<StoredRow>('SELECT id, secrets, secret_masks, secrets_sealed FROM notification_channel WHERE code = $1', [code]))[0];

async function saveRobot(name: string, token: string, secret: string): Promise<string> {
  const saved = await server.call<{ code: string }>('notification.channel.insert', { channel: { name, channelType: 'dingtalk', webhook: WEBHOOK(token), secret, template: '${标题}：${内容}' } }, { token: tadmin });
  expect(saved.code, saved.message).toBe('200');
  return saved.data!.code;
}

/** 测试发送 of the channel: a message in the outbox, pending. */
async function queueTest(code: string): Promise<void> {
  const tested = await server.call('notification.channel.test', { code }, { token: tadmin });
  expect(tested.code, tested.message).toBe('200');
}

/** One round of the delivery loop on `db` through the real transports: how the channel's newest message went, attempt by attempt. */
async function delivered(code: string, db: Database = server.db): Promise<{ state: string | null; attempts: Array<[string, string]> }> {
  await runQueue(db, outboxQueue(channelTransport(db, configFromEnv(env, { now: server.now }))), server.now, policy);
  const [row] = await db.query<{ id: number; delivery_state: string | null }>(
    'SELECT o.id, o.delivery_state FROM outbox o JOIN notification_channel c ON c.id = o.channel_id WHERE c.code = $1 ORDER BY o.id DESC LIMIT 1',
    [code],
  );
  const attempts = await db.query<{ outcome: string; error: string }>('SELECT outcome, error FROM outbox_attempt WHERE outbox_id = $1 ORDER BY id', [row.id]);
  return { state: row.delivery_state, attempts: attempts.map((attempt) => [attempt.outcome, attempt.error]) };
}

async function testSend(code: string): Promise<{ state: string | null; attempts: Array<[string, string]> }> {
  await queueTest(code);
  return delivered(code);
}

describe('the sealing moved to server/security/secrets.ts', () => {
  // Sealed by server/openApi/signature.ts before the move, under a server_secret `open-api` of this value.
  const SHARED = '5f0c3a9e7b21d84c6e0f9a3b2d1c4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f';
  const ACCESS_KEY = 'ak_0123456789abcdef0123456789abcdef';
  const SEALED_KEY_SECRET = 'v1.97KoNrqL-pQNtGAG.SRSSj8Th5R1Epyu3L_QTGA.znf0PJ6MdLrCwpRyKVU53vh428EtP0Aa6nLWyvXnDzwj3wSv8sMCbRITSIVvdw';
  const SEALED_WEBHOOK_SECRET = 'v1.J7YzAfFZtYqpA8G3.Z2nDa6w8i-gPadWIorFQ1A.dv7pPUQILdZPznO8pt9laP3oUiBZRbZ0YpdyfVC5DlSooQKC45O2Lyr28JKWukY';

  it('opens an access key secret and a webhook secret sealed before the move, each for its own binding only', async () => {
    const stored = { query: async <T>(sql: string) => (sql.startsWith('SELECT') ? [{ value: SHARED }] : []) as T[], exec: async () => undefined };
    const key = await secretCipherKey(stored);
    expect(key.equals(cipherKeyOf(SHARED))).toBe(true);
    expect(openSecret(key, SEAL_BINDINGS.accessKey(ACCESS_KEY), SEALED_KEY_SECRET)).toBe('sk_sealed-before-the-move-0123456789abcdefghij');
    expect(openSecret(key, SEAL_BINDINGS.webhook('wh_0123456789abcdef'), SEALED_WEBHOOK_SECRET)).toBe('whsec_sealed-before-the-move-0123456789abcdefgh');
    expect(openSecret(key, SEAL_BINDINGS.webhook('wh_0123456789abcdef'), SEALED_KEY_SECRET)).toBeNull();
    expect(openSecret(key, SEAL_BINDINGS.channelSecret(1, 'secret'), SEALED_WEBHOOK_SECRET)).toBeNull();
    expect(openSecret(cipherKeyOf('another shared value'), SEAL_BINDINGS.accessKey(ACCESS_KEY), SEALED_KEY_SECRET)).toBeNull();
  });
});

describe('a saved channel', () => {
  it('keeps its secret as ciphertext in the table, the mask beside it; the robot is signed with the secret as typed', async () => {
    const code = await saveRobot('密钥加密测试机器人', 'seal-saved', DINGTALK_SECRET);
    const row = await storedRow(server.db, code);
    expect(row.secrets_sealed).toBe(true);
    expect(row.secrets.secret).toMatch(/^v1\./);
    expect(JSON.stringify(await server.db.query('SELECT * FROM notification_channel WHERE id = $1', [row.id]))).not.toContain(DINGTALK_SECRET.slice(3, 20));
    expect(row.secret_masks).toEqual({ secret: `****${DINGTALK_SECRET.slice(-4)}` });
    const detail = await server.call<{ secret: string }>('notification.channel.detail', { code }, { token: tadmin });
    expect(detail.data!.secret).toBe(`****${DINGTALK_SECRET.slice(-4)}`);

    expect(await testSend(code)).toEqual({ state: 'sent', attempts: [['sent', '']] });
    const [request] = robotRequests('seal-saved');
    expect(signedWith(request, DINGTALK_SECRET)).toBe(true);

    // Saving the mask back keeps the ciphertext as it is; a new secret is sealed anew.
    const kept = await server.call('notification.channel.modify', { code, channel: { name: '密钥加密测试机器人', channelType: 'dingtalk', webhook: WEBHOOK('seal-saved'), secret: detail.data!.secret, template: '${内容}' } }, { token: tadmin });
    expect(kept.code, kept.message).toBe('200');
    expect((await storedRow(server.db, code)).secrets).toEqual(row.secrets);
    const replaced = await server.call('notification.channel.modify', { code, channel: { name: '密钥加密测试机器人', channelType: 'dingtalk', webhook: WEBHOOK('seal-saved'), secret: FRESH_SECRET, template: '${内容}' } }, { token: tadmin });
    expect(replaced.code, replaced.message).toBe('200');
    const after = await storedRow(server.db, code);
    expect(after.secrets.secret).toMatch(/^v1\./);
    expect(after.secret_masks).toEqual({ secret: `****${FRESH_SECRET.slice(-4)}` });
    expect(await channelSecretsOf(server, row.id)).toEqual({ secret: FRESH_SECRET });
  });

  it('the seeded channels are sealed as the seed writes them', async () => {
    const rows = await server.db.query<StoredRow>("SELECT id, secrets, secret_masks, secrets_sealed FROM notification_channel WHERE code LIKE 'QD00%' ORDER BY id");
    expect(rows.length).toBeGreaterThan(6);
    for (const row of rows) {
      expect(row.secrets_sealed).toBe(true);
      const names = Object.keys(row.secrets);
      expect(names.length).toBe(1);
      expect(row.secrets[names[0]]).toMatch(/^v1\./);
      const opened = (await channelSecretsOf(server, row.id)) as Record<string, string>;
      expect(row.secret_masks[names[0]]).toBe(opened[names[0]].length > 8 ? `****${opened[names[0]].slice(-4)}` : '********');
    }
  });

  it('a ciphertext copied to another channel or field does not open: the message is given up, nothing is sent', async () => {
    const original = await storedRow(server.db, await saveRobot('密钥来源机器人', 'seal-source', OTHER_SECRET));
    const target = await saveRobot('密钥被复制机器人', 'seal-target', FRESH_SECRET);
    await server.db.query('UPDATE notification_channel SET secrets = $2::jsonb, secret_masks = $3::jsonb WHERE code = $1', [target, JSON.stringify(original.secrets), JSON.stringify(original.secret_masks)]);
    expect(await testSend(target)).toEqual({ state: 'failed', attempts: [['failed', '渠道的加签密钥无法读取，请在发送配置中重新填写']] });
    expect(robotRequests('seal-target')).toEqual([]);

    const key = await secretCipherKey(server.db);
    expect(openChannelSecrets(key, original.id, { appSecret: original.secrets.secret })).toEqual({ unreadable: 'appSecret' });
    expect(openChannelSecrets(key, original.id, original.secrets)).toEqual({ secrets: { secret: OTHER_SECRET } });
  });

  it('the WeChat access token is kept sealed for its channel and AppID', async () => {
    const saved = await server.call<{ code: string }>(
      'notification.channel.insert',
      { channel: { name: '密钥加密测试公众号', channelType: 'wechat', appId: 'wx00112233445566aa', appSecret: APP_SECRET, templateId: 'SealTemplate0001', template: '${内容}' } },
      { token: tadmin },
    );
    expect(saved.code, saved.message).toBe('200');
    const tested = await server.call('notification.channel.test', { code: saved.data!.code, target: 'oWx-seal-officer' }, { token: tadmin });
    expect(tested.code, tested.message).toBe('200');
    await deliveryRound(server, env);
    const fetch = receiver.received.find((request) => request.url.startsWith('/wechat/cgi-bin/token'))!;
    expect(new URL(fetch.url, 'http://receiver').searchParams.get('secret')).toBe(APP_SECRET);
    const { id } = await storedRow(server.db, saved.data!.code);
    const [kept] = await server.db.query<{ token: string }>('SELECT token FROM channel_access_token WHERE channel_id = $1', [id]);
    expect(kept.token).toMatch(/^v1\./);
    expect(kept.token).not.toContain(WECHAT_TOKEN);
    const key = await secretCipherKey(server.db);
    expect(openSecret(key, SEAL_BINDINGS.channelToken(id, 'wx00112233445566aa'), kept.token)).toBe(WECHAT_TOKEN);
    expect(openSecret(key, SEAL_BINDINGS.channelToken(id + 1, 'wx00112233445566aa'), kept.token)).toBeNull();
  });
});

describe('a channel an earlier version kept in the clear', () => {
  it('is sealed at start, once however many instances start together, and still sends with its secret', async () => {
    const code = 'QD900000127';
    await server.db.query(
      `INSERT INTO notification_channel (code, tenant_code, name, channel_type, settings, secrets, template, created_by)
       VALUES ($1, 'T0001', '升级前的机器人', 'dingtalk', $2::jsonb, $3::jsonb, '\${内容}', 'tadmin')`,
      [code, JSON.stringify({ webhook: WEBHOOK('seal-plain') }), JSON.stringify({ secret: PLAIN_SECRET })],
    );
    expect(await storedRow(server.db, code)).toMatchObject({ secrets: { secret: PLAIN_SECRET }, secrets_sealed: false });
    // A message for it, waiting (the copy a PGlite start opens carries it).
    await queueTest(code);

    // Another start on this database (PostgreSQL: two instances at once), or on a copy of it (PGlite, embedded in one process).
    const started =
      engine === 'postgres'
        ? await Promise.all([1, 2].map(() => openDatabase({ databaseUrl: postgresCluster.appUrl(server.databaseName!) })))
        : [await openDatabase({ dump: await (server.db as PgliteDatabase).dump() })];
    const db = started[0].db;
    try {
      const row = await storedRow(db, code);
      expect(row.secrets_sealed).toBe(true);
      expect(row.secrets.secret).toMatch(/^v1\./);
      expect(JSON.stringify(row)).not.toContain(PLAIN_SECRET.slice(3, 20));
      expect(row.secret_masks).toEqual({ secret: `****${PLAIN_SECRET.slice(-4)}` });
      // Sealed once: sealed twice, it would open to the first ciphertext.
      expect(openChannelSecrets(await secretCipherKey(db), row.id, row.secrets)).toEqual({ secrets: { secret: PLAIN_SECRET } });
      // A sealed row is left alone by a later start.
      expect(await sealPlainChannels(db)).toBe(0);
      expect((await storedRow(db, code)).secrets).toEqual(row.secrets);

      expect(await delivered(code, db)).toEqual({ state: 'sent', attempts: [['sent', '']] });
      const [request] = robotRequests('seal-plain');
      expect(signedWith(request, PLAIN_SECRET)).toBe(true);
    } finally {
      for (const instance of started) await instance.db.close();
    }
  }, 120_000);
});
