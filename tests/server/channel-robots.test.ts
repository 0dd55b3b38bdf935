// Issue 31, channels that really send: the DingTalk and Feishu group robots. A receiver on
// 127.0.0.1 stands in for oapi.dingtalk.com and open.feishu.cn (DINGTALK_API_BASE, FEISHU_API_BASE:
// the saved webhook is still the platform's own address) and checks each request's signature by
// computing it again from the channel's 加签 secret, as the platforms' documents define it. A robot
// that answers an error code is a failed attempt with the robot's message in the delivery log, and
// is sent again on the delivery schedule; with nothing configured the outbox stays the transport.
// No secret reaches the log or the outbox.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_POLICY } from '../../server/ingest/delivery';
import { attemptsOf, deliveryRound, onlyChannel, outboxOf, raiseAlarm, startReceiver, type Answer, type Receiver, type ReceivedRequest } from './channel-helpers';
import { secretsIn, startServer, type TestServer } from './harness';

const DINGTALK_SECRET = 'SECb7c1e4f09a2d3c5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6';
const DINGTALK_TOKEN = 'c0ffee00112233445566778899aabbccddeeff00112233445566778899aabbcc';
const FEISHU_SECRET = 'fS3cr3tKeyForTheRobot9';
const FEISHU_HOOK = '6f2b1c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

let server: TestServer;
let tadmin: string;
let receiver: Receiver;
/** What the robots answer next (the rest: success). */
const dingtalkAnswers: Answer[] = [];
const feishuAnswers: Answer[] = [];
let env: NodeJS.ProcessEnv;

function answer(request: ReceivedRequest): Answer {
  if (request.url.startsWith('/robot/send')) return dingtalkAnswers.shift() ?? { status: 200, body: { errcode: 0, errmsg: 'ok' } };
  if (request.url.startsWith('/open-apis/bot/v2/hook/')) return feishuAnswers.shift() ?? { status: 200, body: { code: 0, msg: 'success', data: {} } };
  return { status: 404, body: { message: 'not found' } };
}

beforeAll(async () => {
  server = await startServer();
  tadmin = await server.login('tadmin');
  receiver = await startReceiver(answer);
  env = { CHANNEL_DELIVERY: 'send', DINGTALK_API_BASE: receiver.base, FEISHU_API_BASE: receiver.base };
});
afterAll(async () => {
  await receiver.close();
  expect(secretsIn(server.logs, new Set([DINGTALK_SECRET, FEISHU_SECRET]))).toEqual([]);
  await server.close();
});

/** DingTalk's check: sign = urlencode(base64(HMAC-SHA256(secret, timestamp + "\n" + secret))), in the query. */
function dingtalkSignatureHolds(request: ReceivedRequest, secret: string): boolean {
  const query = new URL(request.url, 'http://receiver').searchParams;
  const timestamp = query.get('timestamp') ?? '';
  const expected = createHmac('sha256', secret).update(`${timestamp}\n${secret}`).digest('base64');
  return /^\d{13}$/.test(timestamp) && query.get('sign') === expected;
}

/** Feishu's check: sign = base64(HMAC-SHA256(key = timestamp + "\n" + secret, empty)), in the body. */
function feishuSignatureHolds(body: { timestamp?: string; sign?: string }, secret: string): boolean {
  const timestamp = body.timestamp ?? '';
  const expected = createHmac('sha256', `${timestamp}\n${secret}`).update('').digest('base64');
  return /^\d{10}$/.test(timestamp) && body.sign === expected;
}

const dingtalkRequests = () => receiver.received.filter((request) => request.url.startsWith('/robot/send'));
const feishuRequests = () => receiver.received.filter((request) => request.url.startsWith('/open-apis/bot/v2/hook/'));

describe('DingTalk', () => {
  let channel: { code: string; id: number };

  beforeAll(async () => {
    channel = await onlyChannel(server, tadmin, {
      name: '渠道测试钉钉群',
      channelType: 'dingtalk',
      webhook: `https://oapi.dingtalk.com/robot/send?access_token=${DINGTALK_TOKEN}`,
      secret: DINGTALK_SECRET,
      template: '【设备告警】${标题}\n${内容}\n通知对象：${姓名}',
    });
  });

  it('an alarm reaches the robot as a text message signed with the channel’s secret', async () => {
    await raiseAlarm(server, tadmin, ['dingtalk']);
    const [row] = await outboxOf(server, channel.id);
    expect(row).toMatchObject({ channel: 'dingtalk', delivery_state: 'pending' });
    expect(JSON.stringify(await server.db.query('SELECT * FROM outbox WHERE channel_id = $1', [channel.id]))).not.toContain(DINGTALK_SECRET);

    expect(await deliveryRound(server, env)).toBeGreaterThanOrEqual(1);
    const [request] = dingtalkRequests();
    expect(request.method).toBe('POST');
    expect(new URL(request.url, 'http://receiver').searchParams.get('access_token')).toBe(DINGTALK_TOKEN);
    expect(dingtalkSignatureHolds(request, DINGTALK_SECRET)).toBe(true);
    expect(dingtalkSignatureHolds(request, 'SECanother')).toBe(false);
    const body = JSON.parse(request.body) as { msgtype: string; text: { content: string } };
    expect(body.msgtype).toBe('text');
    expect(body.text.content).toBe(row.content);
    expect(body.text.content).toMatch(/^【设备告警】/);
    expect((await outboxOf(server, channel.id))[0]).toMatchObject({ delivery_state: 'sent', attempts: 1, last_error: '' });
  });

  it('a robot that answers an error code is a failed attempt with its message, sent again on the schedule', async () => {
    const before = dingtalkRequests().length;
    const tested = await server.call('notification.channel.test', { code: channel.code }, { token: tadmin });
    expect(tested.code, tested.message).toBe('200');
    const row = (await outboxOf(server, channel.id)).at(-1)!;
    dingtalkAnswers.push({ status: 200, body: { errcode: 310000, errmsg: 'sign not match, more: [https://ding-doc.dingtalk.com/doc#/serverapi2/qf2nxq]' } });

    expect(await deliveryRound(server, env)).toBe(1);
    expect((await outboxOf(server, channel.id)).at(-1)).toMatchObject({ id: row.id, delivery_state: 'pending', attempts: 1 });
    expect(await attemptsOf(server, row.id)).toEqual([['failed', expect.stringMatching(/^钉钉返回错误 310000：sign not match/)]]);
    // Not due before the schedule's first pause.
    expect(await deliveryRound(server, env)).toBe(0);
    server.advance(DELIVERY_POLICY.retryDelaysSeconds[0] + 1);
    expect(await deliveryRound(server, env)).toBe(1);
    expect((await outboxOf(server, channel.id)).at(-1)).toMatchObject({ delivery_state: 'sent', attempts: 2, last_error: '' });
    expect((await attemptsOf(server, row.id)).map(([outcome]) => outcome)).toEqual(['failed', 'sent']);
    const tries = dingtalkRequests().slice(before);
    expect(tries).toHaveLength(2);
    for (const request of tries) expect(dingtalkSignatureHolds(request, DINGTALK_SECRET)).toBe(true);

    // The tenant's administrator reads the same in the delivery log.
    const page = await server.call<{ records: Array<{ id: number; attemptLog: Array<{ outcome: string; error: string }> }> }>('notification.delivery.page', { channel: 'dingtalk' }, { token: await server.login('tadmin') });
    expect(page.data!.records.find((record) => record.id === row.id)!.attemptLog.map((one) => one.outcome)).toEqual(['failed', 'sent']);
  });

  it('with nothing configured the outbox stays the transport: nothing reaches the robot', async () => {
    const before = receiver.received.length;
    tadmin = await server.login('tadmin');
    expect((await server.call('notification.channel.test', { code: channel.code }, { token: tadmin })).code).toBe('200');
    // The same endpoints, but CHANNEL_DELIVERY unset (npm start, the tests that configure nothing).
    expect(await deliveryRound(server, { DINGTALK_API_BASE: receiver.base })).toBe(1);
    expect((await outboxOf(server, channel.id)).at(-1)).toMatchObject({ delivery_state: 'sent', attempts: 1 });
    expect(receiver.received.length).toBe(before);
  });

  it('a channel disabled after its message was written gives the message up, unsent', async () => {
    const before = receiver.received.length;
    expect((await server.call('notification.channel.test', { code: channel.code }, { token: tadmin })).code).toBe('200');
    expect((await server.call('notification.channel.enable', { code: channel.code, enabled: false }, { token: tadmin })).code).toBe('200');
    expect(await deliveryRound(server, env)).toBe(1);
    expect((await outboxOf(server, channel.id)).at(-1)).toMatchObject({ delivery_state: 'failed', attempts: 1, last_error: '通知渠道已停用，不再发送' });
    expect(receiver.received.length).toBe(before);
  });
});

describe('Feishu', () => {
  let channel: { code: string; id: number };

  beforeAll(async () => {
    tadmin = await server.login('tadmin');
    channel = await onlyChannel(server, tadmin, {
      name: '渠道测试飞书群',
      channelType: 'feishu',
      webhook: `https://open.feishu.cn/open-apis/bot/v2/hook/${FEISHU_HOOK}`,
      secret: FEISHU_SECRET,
      template: '${标题}\n${内容}',
    });
  });

  it('an alarm reaches the robot with timestamp and sign in the body; an error code is retried on the schedule', async () => {
    await raiseAlarm(server, tadmin, ['feishu']);
    const [row] = await outboxOf(server, channel.id);
    feishuAnswers.push({ status: 200, body: { code: 19021, msg: 'sign match fail or timestamp is not within one hour from current time', data: {} } });
    expect(await deliveryRound(server, env)).toBeGreaterThanOrEqual(1);
    expect(await attemptsOf(server, row.id)).toEqual([['failed', '飞书返回错误 19021：sign match fail or timestamp is not within one hour from current time']]);
    server.advance(DELIVERY_POLICY.retryDelaysSeconds[0] + 1);
    expect(await deliveryRound(server, env)).toBe(1);
    expect((await outboxOf(server, channel.id))[0]).toMatchObject({ delivery_state: 'sent', attempts: 2 });

    const requests = feishuRequests();
    expect(requests).toHaveLength(2);
    for (const request of requests) {
      expect(request.url).toBe(`/open-apis/bot/v2/hook/${FEISHU_HOOK}`);
      const body = JSON.parse(request.body) as { timestamp: string; sign: string; msg_type: string; content: { text: string } };
      expect(feishuSignatureHolds(body, FEISHU_SECRET)).toBe(true);
      expect(feishuSignatureHolds(body, 'another')).toBe(false);
      expect(body.msg_type).toBe('text');
      expect(body.content.text).toBe(row.content);
    }
  });

  it('an older robot’s StatusCode answer is read too', async () => {
    expect((await server.call('notification.channel.test', { code: channel.code }, { token: tadmin })).code).toBe('200');
    feishuAnswers.push({ status: 200, body: { StatusCode: 9499, StatusMessage: 'Bad Request' } });
    expect(await deliveryRound(server, env)).toBe(1);
    expect((await outboxOf(server, channel.id)).at(-1)).toMatchObject({ delivery_state: 'pending', last_error: '飞书返回错误 9499：Bad Request' });
  });
});
