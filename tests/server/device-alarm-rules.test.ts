// The alarm rules fire (issue 22): a device's reading past a rule's threshold raises one alarm per
// episode (after the rule's duration), tells the rule's channels through the outbox, and a reading
// back within bounds ends the episode and recovers the alarm when the rule says so; readings that
// arrive late change nothing, and readings sent at once raise one alarm.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricValue } from '../../server/ingest/alarmEvaluation';
import type { DeviceCredential } from '../../server/operations/devices/credentials';
import { startServer, type TestServer } from './harness';

let server: TestServer;
let tadmin: string;
let devices: Array<{ id: number; code: string; name: string; secret: string }>;
const WEBHOOK = 'https://oapi.dingtalk.com/robot/send?access_token=alarm-test';

beforeAll(async () => {
  server = await startServer();
  tadmin = await server.login('tadmin');
  const rows = await server.db.query<{ id: number; code: string; name: string }>(
    "SELECT id, code, name FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL ORDER BY code LIMIT 4",
  );
  devices = [];
  for (const row of rows) {
    const answer = await server.call<DeviceCredential & { secret: string }>('device.credential.reset', { code: row.code }, { token: tadmin });
    devices.push({ ...row, secret: answer.data!.secret });
  }
  await server.db.query(
    `INSERT INTO notification_channel (code, tenant_code, name, channel_type, settings, template, created_by)
     VALUES ('QD900000001', 'T0001', '告警测试机器人', 'dingtalk', $1, '【告警】\${标题}：\${内容}（\${时间}）', 'test')`,
    [JSON.stringify({ webhook: WEBHOOK })],
  );
});
afterAll(() => server.close());

interface Stored {
  latest: boolean;
  alarms: Array<{ ruleId: number; change: 'raised' | 'recovered'; alarmCode: string }>;
}

async function report(device: { code: string; secret: string }, body: object): Promise<Stored> {
  const reply = await server.app.inject({
    method: 'POST',
    url: '/api/device/telemetry/_report',
    headers: { 'x-device-code': device.code, 'x-device-secret': device.secret, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  const envelope = reply.json<{ code: string; message: string; data: Stored }>();
  expect(envelope.code, envelope.message).toBe('200');
  return envelope.data;
}

/** A rule of T0001 through the console's own operation; answers its id. */
async function rule(fields: Record<string, unknown>): Promise<number> {
  const insert = await server.call<{ code: string }>(
    'alarm.config.insert',
    { rule: { alarmType: 'threshold', level: 2, metric: 'turbidity', operator: 'gt', threshold: 50, notifyChannels: ['dingtalk'], ...fields } },
    { token: tadmin },
  );
  expect(insert.code, insert.message).toBe('200');
  const [row] = await server.db.query<{ id: number }>('SELECT id FROM alarm_rule WHERE code = $1', [insert.data!.code]);
  return row.id;
}

const mine = (stored: Stored, ruleId: number) => stored.alarms.filter((alarm) => alarm.ruleId === ruleId);
const alarmOf = async (code: string) =>
  (
    await server.db.query<{ state: string; title: string; content: string; level: number; metric_value: string; tenant_code: string; recovered_at: Date | null }>(
      'SELECT state, title, content, level, metric_value, tenant_code, recovered_at FROM alarm_record WHERE code = $1',
      [code],
    )
  )[0];
const outboxTo = async (target: string) => (await server.db.query<{ content: string }>('SELECT content FROM outbox WHERE target = $1 ORDER BY id', [target])).map((row) => row.content);

describe('alarm rules on device reports', () => {
  it('a reading past the threshold raises one alarm per episode, tells the robot, and recovers when back within bounds', async () => {
    const ruleId = await rule({ name: '浊度超标测试' });
    const [device] = devices;
    const told = (await outboxTo(WEBHOOK)).length;
    const bell = async () => (await server.call<{ systemCount: number }>('notification.count', {}, { token: tadmin })).data!.systemCount;
    const unread = await bell();
    const first = await report(device, { metrics: { turbidity: 62.5 } });
    const [raised] = mine(first, ruleId);
    expect(raised).toMatchObject({ change: 'raised', alarmCode: expect.stringMatching(/^AL\d{8}\d{5}$/) });
    expect(await alarmOf(raised.alarmCode)).toMatchObject({
      state: 'pending',
      title: `浊度超标测试：${device.name}`,
      content: '浊度 62.5NTU（阈值告警：浊度 > 50NTU）',
      level: 2,
      tenant_code: 'T0001',
    });
    expect(Number((await alarmOf(raised.alarmCode)).metric_value)).toBe(62.5);
    const messages = await outboxTo(WEBHOOK);
    expect(messages).toHaveLength(told + 1);
    expect(messages.at(-1)).toMatch(/^【告警】浊度超标测试：.+：浊度 62\.5NTU（阈值告警：浊度 > 50NTU）（\d{4}-\d{2}-\d{2} \d{2}:\d{2}）$/);
    // The tenant admin's bell: a system message with the alarm.
    expect(await bell()).toBe(unread + 1);
    const [latest] = await server.db.query<{ title: string; body_text: string }>(
      `SELECT n.title, n.body_text FROM notification n JOIN notification_recipient r ON r.notification_id = n.id
        JOIN app_user u ON u.id = r.user_id WHERE u.login_name = 'tadmin' ORDER BY n.id DESC LIMIT 1`,
    );
    expect(latest).toEqual({ title: `告警：浊度超标测试：${device.name}`, body_text: '浊度 62.5NTU（阈值告警：浊度 > 50NTU）' });
    // Still past it: the same episode, no second alarm and no second message.
    expect(mine(await report(device, { metrics: { turbidity: 70 } }), ruleId)).toEqual([]);
    expect(await outboxTo(WEBHOOK)).toHaveLength(told + 1);
    // Back within bounds: recovered; a new breach is a new episode.
    expect(mine(await report(device, { metrics: { turbidity: 12 } }), ruleId)).toEqual([{ ruleId, change: 'recovered', alarmCode: raised.alarmCode }]);
    expect(await alarmOf(raised.alarmCode)).toMatchObject({ state: 'recovered', recovered_at: expect.any(Date) });
    const again = mine(await report(device, { metrics: { turbidity: 55 } }), ruleId);
    expect(again).toEqual([{ ruleId, change: 'raised', alarmCode: expect.not.stringMatching(raised.alarmCode) }]);
    // The alarm list of the console shows it.
    const list = await server.post('/alarm/record/_page', { pageParam: { pageNumber: 1, pageSize: 5 }, param: {}, sortParamList: [] }, { token: tadmin });
    expect(JSON.stringify(list.body.data)).toContain(again[0].alarmCode);
  });

  it('a duration rule raises once the breach has lasted it, counted from the readings’ own times', async () => {
    const ruleId = await rule({ name: '浊度持续超标测试', threshold: 80, durationMinutes: 5 });
    const device = devices[1];
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    expect(mine(await report(device, { reportedAt: at(9), metrics: { turbidity: 90 } }), ruleId)).toEqual([]);
    expect(mine(await report(device, { reportedAt: at(6), metrics: { turbidity: 91 } }), ruleId)).toEqual([]);
    const lasted = mine(await report(device, { reportedAt: at(3), metrics: { turbidity: 92 } }), ruleId);
    expect(lasted).toEqual([{ ruleId, change: 'raised', alarmCode: expect.any(String) }]);
    // A reading back within bounds interrupts a breach that had not lasted yet: it starts over.
    const other = devices[2];
    expect(mine(await report(other, { reportedAt: at(9), metrics: { turbidity: 90 } }), ruleId)).toEqual([]);
    expect(mine(await report(other, { reportedAt: at(7), metrics: { turbidity: 10 } }), ruleId)).toEqual([]);
    expect(mine(await report(other, { reportedAt: at(3), metrics: { turbidity: 95 } }), ruleId)).toEqual([]);
  });

  it('without automatic recovery the alarm stays open; an alarm staff handled stays handled', async () => {
    const manual = await rule({ name: '浊度人工恢复测试', threshold: 200, recoverAutomatically: false });
    const device = devices[3];
    const [raised] = mine(await report(device, { metrics: { turbidity: 250 } }), manual);
    expect(mine(await report(device, { metrics: { turbidity: 20 } }), manual)).toEqual([]);
    expect((await alarmOf(raised.alarmCode)).state).toBe('pending');
    const detail = await server.call<{ recoverAutomatically: boolean }>('alarm.config.detail', { code: (await server.db.query<{ code: string }>('SELECT code FROM alarm_rule WHERE id = $1', [manual]))[0].code }, { token: tadmin });
    expect(detail.data!.recoverAutomatically).toBe(false);

    const automatic = await rule({ name: '浊度已处理测试', threshold: 300 });
    const [second] = mine(await report(device, { metrics: { turbidity: 310 } }), automatic);
    const handled = await server.call('alarm.record.handle', { code: second.alarmCode, state: 'resolved', remark: '已现场处理' }, { token: tadmin });
    expect(handled.code, handled.message).toBe('200');
    expect(mine(await report(device, { metrics: { turbidity: 30 } }), automatic)).toEqual([]);
    expect((await alarmOf(second.alarmCode)).state).toBe('resolved');
  });

  it('a late reading changes no episode; readings sent at once raise one alarm', async () => {
    const ruleId = await rule({ name: '浊度并发测试', threshold: 400 });
    const device = devices[0];
    await report(device, { metrics: { turbidity: 5 } });
    const late = await report(device, { reportedAt: new Date(Date.now() - 3_600_000).toISOString(), metrics: { turbidity: 999 } });
    expect(late).toEqual({ latest: false, alarms: [], commands: [] });
    const burst = await Promise.all(Array.from({ length: 6 }, () => report(device, { metrics: { turbidity: 450 } })));
    expect(burst.flatMap((stored) => mine(stored, ruleId))).toHaveLength(1);
    const [count] = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM alarm_record WHERE rule_id = $1', [ruleId]);
    expect(count.n).toBe(1);
  });
});

describe('what a rule reads of a report', () => {
  it('each metric from its field; 瞬时流量 (flow) from the devices’ flowRate', () => {
    const report = { temperature: 21.5, batteryLevel: 40, signalStrength: 12, metrics: { flowRate: 3.2, turbidity: 7 } };
    expect(['temperature', 'battery', 'signal', 'flow', 'turbidity', 'pressure'].map((metric) => metricValue(report, metric))).toEqual([21.5, 40, 12, 3.2, 7, undefined]);
    expect(metricValue({ metrics: { flow: 5 } }, 'flow')).toBe(5);
  });
});
