// Issue 31, channels that really send: SMS and voice through Aliyun's dysmsapi SendSms and dyvmsapi
// SingleCallByTts (RPC signature version 1.0), and WeChat template messages. A receiver on
// 127.0.0.1 stands in for each API (ALIYUN_SMS_ENDPOINT, ALIYUN_VOICE_ENDPOINT, WECHAT_API_BASE):
// it checks the SMS and voice requests' signature by computing it again from the channel's
// AccessKey Secret, answers Aliyun's and WeChat's codes, and counts WeChat's token fetches (once
// for many messages, again only after the token expires or is refused). Verification codes by SMS
// go through the platform's own SMS channel; a code with no platform channel of its type (voice)
// stays in the outbox. No secret or token is logged.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../server/config';
import { openPostgres } from '../../server/db/postgres';
import { DELIVERY_POLICY, runQueue } from '../../server/ingest/delivery';
import { channelTransport } from '../../server/ingest/channels';
import { rpcSignature } from '../../server/ingest/channels/aliyun';
import { outboxQueue } from '../../server/ingest/outboxDelivery';
import { attemptsOf, channelSecretsOf, deliveryRound, onlyChannel, outboxOf, policy, raiseAlarm, startReceiver, type Answer, type Receiver, type ReceivedRequest } from './channel-helpers';
import { engine, postgresCluster, secretsIn, startServer, type TestServer } from './harness';

const ACCESS_KEY_ID = 'LTAI5tChannelTest0001';
const ACCESS_KEY_SECRET = 'aLiYunAccessKeySecretForTests01';
const APP_ID = 'wx0123456789abcdef';
const APP_SECRET = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';
const TOKENS = ['WX-TOKEN-0001-abcdefghijklmnop', 'WX-TOKEN-0002-qrstuvwxyzabcdef', 'WX-TOKEN-0003-ghijklmnopqrstuv', 'WX-TOKEN-0004-wxyzabcdefghijkl'];

let server: TestServer;
let tadmin: string;
let receiver: Receiver;
let env: NodeJS.ProcessEnv;
const aliyunAnswers: Answer[] = [];
const templateAnswers: Answer[] = [];
let tokensIssued = 0;

/** Aliyun's check, written from its document: sorted, RFC 3986-encoded, POST&%2F&…, HMAC-SHA1 under secret + "&". */
function aliyunSignatureHolds(body: string, secret: string): boolean {
  const params = new URLSearchParams(body);
  const encode = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const canonical = [...params.keys()]
    .filter((name) => name !== 'Signature')
    .sort()
    .map((name) => `${encode(name)}=${encode(params.get(name) ?? '')}`)
    .join('&');
  const expected = createHmac('sha1', `${secret}&`).update(`POST&${encode('/')}&${encode(canonical)}`).digest('base64');
  return params.get('Signature') === expected;
}

function answer(request: ReceivedRequest): Answer {
  if (request.url.startsWith('/aliyun-')) return aliyunAnswers.shift() ?? { status: 200, body: { Code: 'OK', Message: 'OK', RequestId: 'F655A8D5-B967-440B-8683-DAD6FF8DE990', BizId: '900619746936498440^0' } };
  if (request.url.startsWith('/wechat/cgi-bin/token')) {
    const token = TOKENS[tokensIssued];
    tokensIssued += 1;
    return { status: 200, body: { access_token: token, expires_in: 7200 } };
  }
  if (request.url.startsWith('/wechat/cgi-bin/message/template/send')) return templateAnswers.shift() ?? { status: 200, body: { errcode: 0, errmsg: 'ok', msgid: 200228332 } };
  return { status: 404, body: {} };
}

beforeAll(async () => {
  server = await startServer();
  tadmin = await server.login('tadmin');
  receiver = await startReceiver(answer);
  env = { CHANNEL_DELIVERY: 'send', ALIYUN_SMS_ENDPOINT: `${receiver.base}/aliyun-sms`, ALIYUN_VOICE_ENDPOINT: `${receiver.base}/aliyun-voice`, WECHAT_API_BASE: `${receiver.base}/wechat` };
});
afterAll(async () => {
  await receiver.close();
  expect(secretsIn(server.logs, new Set([ACCESS_KEY_SECRET, APP_SECRET, ...TOKENS]))).toEqual([]);
  await server.close();
});

const requestsTo = (path: string) => receiver.received.filter((request) => request.url.startsWith(path));

describe('Aliyun’s signature', () => {
  it('matches the example of Aliyun’s document (签名机制: testid / testsecret, DescribeRegions)', () => {
    const params = {
      TimeStamp: '2016-02-23T12:46:24Z',
      Format: 'XML',
      AccessKeyId: 'testid',
      Action: 'DescribeRegions',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: '3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf',
      Version: '2014-05-26',
      SignatureVersion: '1.0',
    };
    expect(rpcSignature('GET', params, 'testsecret')).toBe('CT9X0VtwR86fNWSnsc6v8YGOjuE=');
  });
});

describe('SMS', () => {
  let channel: { code: string; id: number };

  beforeAll(async () => {
    channel = await onlyChannel(server, tadmin, {
      name: '渠道测试短信',
      channelType: 'sms',
      provider: 'aliyun',
      accessKeyId: ACCESS_KEY_ID,
      accessKeySecret: ACCESS_KEY_SECRET,
      signName: '云联物联网',
      templateCode: 'SMS_465910231',
      template: '${姓名}您好，${标题}：${内容}',
    });
  });

  it('an alarm’s SMS is a signed SendSms request with the rendered text as the template’s content', async () => {
    await raiseAlarm(server, tadmin, ['sms']);
    const rows = await outboxOf(server, channel.id);
    const row = rows.find((one) => one.target === '13800000001')!;
    expect(row.content).toMatch(/^【云联物联网】张明您好，/);
    expect(await deliveryRound(server, env)).toBe(rows.length);
    const request = requestsTo('/aliyun-sms/').find((one) => new URLSearchParams(one.body).get('PhoneNumbers') === '13800000001')!;
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(aliyunSignatureHolds(request.body, ACCESS_KEY_SECRET)).toBe(true);
    expect(aliyunSignatureHolds(request.body, 'another-secret')).toBe(false);
    const params = Object.fromEntries(new URLSearchParams(request.body));
    expect(params).toMatchObject({
      Action: 'SendSms',
      Version: '2017-05-25',
      Format: 'JSON',
      AccessKeyId: ACCESS_KEY_ID,
      SignatureMethod: 'HMAC-SHA1',
      SignatureVersion: '1.0',
      SignName: '云联物联网',
      TemplateCode: 'SMS_465910231',
    });
    expect(params.Timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(JSON.parse(params.TemplateParam)).toEqual({ content: row.content.replace('【云联物联网】', '') });
    expect(request.body).not.toContain(ACCESS_KEY_SECRET);
    expect((await outboxOf(server, channel.id)).every((one) => one.delivery_state === 'sent')).toBe(true);
  });

  it('an Aliyun error code is a failed attempt with its code and message, sent again on the schedule', async () => {
    const tested = await server.call('notification.channel.test', { code: channel.code, target: '13900000002' }, { token: tadmin });
    expect(tested.code, tested.message).toBe('200');
    aliyunAnswers.push({ status: 200, body: { Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: '触发号码天级流控', RequestId: 'A1' } });
    expect(await deliveryRound(server, env)).toBe(1);
    const row = (await outboxOf(server, channel.id)).at(-1)!;
    expect(row).toMatchObject({ delivery_state: 'pending', attempts: 1 });
    expect(await attemptsOf(server, row.id)).toEqual([['failed', '阿里云短信返回错误 isv.BUSINESS_LIMIT_CONTROL：触发号码天级流控']]);
    server.advance(DELIVERY_POLICY.retryDelaysSeconds[0] + 1);
    expect(await deliveryRound(server, env)).toBe(1);
    expect((await outboxOf(server, channel.id)).at(-1)).toMatchObject({ delivery_state: 'sent', attempts: 2 });
  });

  it('a provider not implemented is refused without retries', async () => {
    await server.db.query("UPDATE notification_channel SET settings = settings || '{\"provider\": \"tencent\"}'::jsonb WHERE id = $1", [channel.id]);
    tadmin = await server.login('tadmin');
    expect((await server.call('notification.channel.test', { code: channel.code, target: '13900000003' }, { token: tadmin })).code).toBe('200');
    expect(await deliveryRound(server, env)).toBe(1);
    expect((await outboxOf(server, channel.id)).at(-1)).toMatchObject({ delivery_state: 'failed', attempts: 1, last_error: '暂不支持通过腾讯云发送，请改用阿里云' });
  });
});

describe('voice', () => {
  it('a voice message is a signed SingleCallByTts request with the text as the TTS template’s content', async () => {
    const channel = await onlyChannel(server, tadmin, {
      name: '渠道测试语音',
      channelType: 'voice',
      provider: 'aliyun',
      accessKeyId: ACCESS_KEY_ID,
      accessKeySecret: ACCESS_KEY_SECRET,
      templateCode: 'TTS_298150112',
      template: '您好，${姓名}，${内容}，请尽快处理。',
    });
    expect((await server.call('notification.channel.test', { code: channel.code, target: '13900000004' }, { token: tadmin })).code).toBe('200');
    expect(await deliveryRound(server, env)).toBe(1);
    const [row] = await outboxOf(server, channel.id);
    expect(row.delivery_state).toBe('sent');
    const [request] = requestsTo('/aliyun-voice/');
    expect(aliyunSignatureHolds(request.body, ACCESS_KEY_SECRET)).toBe(true);
    const params = Object.fromEntries(new URLSearchParams(request.body));
    expect(params).toMatchObject({ Action: 'SingleCallByTts', Version: '2017-05-25', CalledNumber: '13900000004', TtsCode: 'TTS_298150112' });
    expect(JSON.parse(params.TtsParam)).toEqual({ content: row.content });
  });
});

describe('WeChat', () => {
  let channel: { code: string; id: number };
  const sends = () => requestsTo('/wechat/cgi-bin/message/template/send');
  const tokenOf = (request: ReceivedRequest) => new URL(request.url, 'http://receiver').searchParams.get('access_token');

  beforeAll(async () => {
    channel = await onlyChannel(server, tadmin, {
      name: '渠道测试公众号',
      channelType: 'wechat',
      appId: APP_ID,
      appSecret: APP_SECRET,
      templateId: 'Rj7nN4vyA4m2bOC8yH8lXcWkzE5x0Ygq0sFvTQ3AaBc',
      template: '${标题}\n${内容}\n发送时间：${时间}',
    });
  });

  it('fetches the access token once for several messages, then sends each template message with it', async () => {
    await raiseAlarm(server, tadmin, ['wechat']);
    for (const openId of ['oWx-duty-officer-01', 'oWx-duty-officer-02']) {
      expect((await server.call('notification.channel.test', { code: channel.code, target: openId }, { token: tadmin })).code).toBe('200');
    }
    const rows = await outboxOf(server, channel.id);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    // All sent in one round, at once: one token fetch between them.
    expect(await deliveryRound(server, env)).toBe(rows.length);
    const [fetch] = requestsTo('/wechat/cgi-bin/token');
    expect(requestsTo('/wechat/cgi-bin/token')).toHaveLength(1);
    expect(fetch.method).toBe('GET');
    expect(Object.fromEntries(new URL(fetch.url, 'http://receiver').searchParams)).toEqual({ grant_type: 'client_credential', appid: APP_ID, secret: APP_SECRET });
    expect(sends()).toHaveLength(rows.length);
    for (const request of sends()) expect(tokenOf(request)).toBe(TOKENS[0]);
    const toTadmin = sends().find((request) => (JSON.parse(request.body) as { touser: string }).touser === 'wx-demo-tadmin')!;
    expect(JSON.parse(toTadmin.body)).toEqual({
      touser: 'wx-demo-tadmin',
      template_id: 'Rj7nN4vyA4m2bOC8yH8lXcWkzE5x0Ygq0sFvTQ3AaBc',
      data: { content: { value: rows.find((row) => row.target === 'wx-demo-tadmin')!.content } },
    });
    expect((await outboxOf(server, channel.id)).every((row) => row.delivery_state === 'sent')).toBe(true);

    // Another round within the token's life fetches nothing.
    expect((await server.call('notification.channel.test', { code: channel.code, target: 'oWx-duty-officer-03' }, { token: tadmin })).code).toBe('200');
    expect(await deliveryRound(server, env)).toBe(1);
    expect(requestsTo('/wechat/cgi-bin/token')).toHaveLength(1);
  });

  it('fetches a new token once the kept one expires, and after WeChat refuses one', async () => {
    server.advance(7200);
    tadmin = await server.login('tadmin');
    expect((await server.call('notification.channel.test', { code: channel.code, target: 'oWx-duty-officer-04' }, { token: tadmin })).code).toBe('200');
    expect(await deliveryRound(server, env)).toBe(1);
    expect(requestsTo('/wechat/cgi-bin/token')).toHaveLength(2);
    expect(tokenOf(sends().at(-1)!)).toBe(TOKENS[1]);

    // 40001: the token is no longer valid (another system fetched one): forgotten, the retry fetches anew.
    expect((await server.call('notification.channel.test', { code: channel.code, target: 'oWx-duty-officer-05' }, { token: tadmin })).code).toBe('200');
    templateAnswers.push({ status: 200, body: { errcode: 40001, errmsg: 'invalid credential, access_token is invalid or not latest' } });
    expect(await deliveryRound(server, env)).toBe(1);
    const row = (await outboxOf(server, channel.id)).at(-1)!;
    expect(await attemptsOf(server, row.id)).toEqual([['failed', '微信返回错误 40001：invalid credential, access_token is invalid or not latest']]);
    server.advance(DELIVERY_POLICY.retryDelaysSeconds[0] + 1);
    expect(await deliveryRound(server, env)).toBe(1);
    expect(requestsTo('/wechat/cgi-bin/token')).toHaveLength(3);
    expect(tokenOf(sends().at(-1)!)).toBe(TOKENS[2]);
    expect((await outboxOf(server, channel.id)).at(-1)).toMatchObject({ delivery_state: 'sent', attempts: 2 });
  });

  it.runIf(engine === 'postgres')('two instances on one database sending at once fetch one token between them', async () => {
    // A second instance: its own pool on the same database (and its own in-process fetches).
    const other = openPostgres({ connectionString: postgresCluster.appUrl(server.databaseName!) });
    try {
      await server.db.query('DELETE FROM channel_access_token WHERE channel_id = $1', [channel.id]);
      for (let officer = 10; officer < 16; officer += 1) {
        expect((await server.call('notification.channel.test', { code: channel.code, target: `oWx-duty-officer-${officer}` }, { token: tadmin })).code).toBe('200');
      }
      const fetchesBefore = requestsTo('/wechat/cgi-bin/token').length;
      const config = configFromEnv(env, { now: server.now });
      const rounds = await Promise.all([server.db, other].map((db) => runQueue(db, outboxQueue(channelTransport(db, config)), server.now, { ...policy, batch: 3 })));
      expect(rounds).toEqual([3, 3]);
      expect(requestsTo('/wechat/cgi-bin/token').length).toBe(fetchesBefore + 1);
      expect(new Set(sends().slice(-6).map(tokenOf))).toEqual(new Set([TOKENS[3]]));
      expect((await outboxOf(server, channel.id)).slice(-6).every((row) => row.delivery_state === 'sent')).toBe(true);
    } finally {
      await other.close();
    }
  });
});

describe('verification codes', () => {
  const codeRow = async (target: string) =>
    (await server.db.query<{ id: number; channel: string; delivery_state: string }>("SELECT id, channel, delivery_state FROM outbox WHERE target = $1 AND code <> '' ORDER BY id DESC LIMIT 1", [target]))[0];

  it('go by SMS through the platform’s own SMS channel, the code as the template’s variable', async () => {
    server.advance(3600);
    await deliveryRound(server, env);
    const [stored] = await server.db.query<{ id: number; settings: { accessKeyId: string; signName: string; templateCode: string } }>(
      "SELECT id, settings FROM notification_channel WHERE tenant_code IS NULL AND channel_type = 'sms' AND enabled ORDER BY id LIMIT 1",
    );
    const platform = { settings: stored.settings, secret: (await channelSecretsOf(server, stored.id)).accessKeySecret! };
    const sent = await server.call('verification.sms.send', { target: '13800000003', ...(await server.solvedCaptcha()) });
    expect(sent.code, sent.message).toBe('200');
    const code = await server.latestCode('13800000003');
    expect((await codeRow('13800000003')).delivery_state).toBe('pending');
    const before = requestsTo('/aliyun-sms/').length;
    expect(await deliveryRound(server, env)).toBe(1);
    const [request] = requestsTo('/aliyun-sms/').slice(before);
    expect(aliyunSignatureHolds(request.body, platform.secret)).toBe(true);
    const params = Object.fromEntries(new URLSearchParams(request.body));
    expect(params).toMatchObject({ Action: 'SendSms', PhoneNumbers: '13800000003', AccessKeyId: platform.settings.accessKeyId, SignName: platform.settings.signName, TemplateCode: platform.settings.templateCode });
    expect(JSON.parse(params.TemplateParam)).toEqual({ code });
    expect((await codeRow('13800000003')).delivery_state).toBe('sent');
    // Platform staff's delivery log lists channel messages only: no live code is shown there.
    const log = await server.call<{ records: Array<{ target: string }> }>('notification.delivery.page', {}, { token: await server.login('admin', 'Admin@2026') });
    expect(log.code, log.message).toBe('200');
    expect(log.data!.records.some((record) => record.target === '13800000003')).toBe(false);
  });

  it('with no platform channel of its type (voice) a code stays in the outbox, as before', async () => {
    const sent = await server.call('verification.voice.send', { target: '13800000004', ...(await server.solvedCaptcha()) });
    expect(sent.code, sent.message).toBe('200');
    await server.latestCode('13800000004');
    const before = requestsTo('/aliyun-voice/').length;
    expect(await deliveryRound(server, env)).toBe(1);
    expect(await codeRow('13800000004')).toMatchObject({ channel: 'voice', delivery_state: 'sent' });
    expect(requestsTo('/aliyun-voice/').length).toBe(before);
  });
});
