// Devices go offline by themselves and the offline and fault rules fire (issue 22): a device that
// stops reporting is marked offline by the sweep after its product's silence window (two
// heartbeats), raises the offline rule's alarm once, and recovers it when it reports again; the
// seeded fleet, which never reported, is left alone; two sweeps at once mark and raise once. A
// report carrying a fault code raises the fault rule once per episode and a report without it
// (faultCodes: []) recovers it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SILENCE_HEARTBEATS, sweepOfflineDevices } from '../../server/ingest/offlineSweep';
import { SimulatedDevice } from '../../scripts/simulator/readings';
import type { DeviceCredential } from '../../server/operations/devices/credentials';
import { startServer, type TestServer } from './harness';

let server: TestServer;
let tadmin: string;
let devices: Array<{ id: number; code: string; name: string; secret: string; heartbeat: number }>;

beforeAll(async () => {
  server = await startServer();
  tadmin = await server.login('tadmin');
  const rows = await server.db.query<{ id: number; code: string; name: string; heartbeat: number }>(
    `SELECT d.id, d.code, d.name,
            COALESCE((s.settings ->> 'heartbeatMinutes')::int, (p.settings ->> 'heartbeatMinutes')::int, CASE WHEN p.battery_powered THEN 240 ELSE 10 END) AS heartbeat
       FROM device d JOIN product p ON p.code = d.product_code
       LEFT JOIN product_tenant_setting s ON s.product_code = d.product_code AND s.tenant_code = d.tenant_code
      WHERE d.tenant_code = 'T0001' AND d.deleted_at IS NULL AND p.code <> 'PRD-GW-4G' ORDER BY d.code LIMIT 2`,
  );
  devices = [];
  for (const row of rows) {
    const answer = await server.call<DeviceCredential & { secret: string }>('device.credential.reset', { code: row.code }, { token: tadmin });
    devices.push({ ...row, secret: answer.data!.secret });
  }
});
afterAll(() => server.close());

interface Stored {
  latest: boolean;
  alarms: Array<{ ruleId: number; change: 'raised' | 'recovered'; alarmCode: string }>;
}

async function report(device: { code: string; secret: string }, body: object): Promise<{ code: string; message: string; data: Stored }> {
  const reply = await server.app.inject({
    method: 'POST',
    url: '/api/device/telemetry/_report',
    headers: { 'x-device-code': device.code, 'x-device-secret': device.secret, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  return reply.json();
}

async function rule(fields: Record<string, unknown>): Promise<{ code: string; message: string; id: number }> {
  const insert = await server.call<{ code: string }>('alarm.config.insert', { rule: { level: 2, operator: 'gt', notifyChannels: [], ...fields } }, { token: tadmin });
  if (insert.code !== '200') return { code: insert.code, message: insert.message, id: 0 };
  const [row] = await server.db.query<{ id: number }>('SELECT id FROM alarm_rule WHERE code = $1', [insert.data!.code]);
  return { code: insert.code, message: insert.message, id: row.id };
}

const sweep = () => sweepOfflineDevices(server.db, server.now(), 'Asia/Shanghai', () => undefined);
const stateOf = async (id: number) => (await server.db.query<{ online_state: string }>('SELECT online_state FROM device WHERE id = $1', [id]))[0].online_state;
const alarmsOf = async (ruleId: number) =>
  server.db.query<{ code: string; state: string; content: string; device_code: string; alarm_type: string }>(
    'SELECT code, state, content, device_code, alarm_type FROM alarm_record WHERE rule_id = $1 ORDER BY id',
    [ruleId],
  );

describe('offline detection', () => {
  it('a device that stops reporting goes offline after two heartbeats, raises the offline rule once and recovers when it reports', async () => {
    const [device] = devices;
    const window = SILENCE_HEARTBEATS * device.heartbeat;
    const offline = await rule({ name: '离线测试', alarmType: 'offline', metric: 'offline_minutes', threshold: window + 30 });
    expect(offline.code, offline.message).toBe('200');
    // A seeded device that is online and never reported through ingestion: the sweep leaves it alone.
    const [seeded] = await server.db.query<{ id: number }>(
      "SELECT id FROM device WHERE tenant_code = 'T0001' AND online_state = 'online' AND last_reported_at IS NULL AND deleted_at IS NULL AND id <> ALL($1::int[]) LIMIT 1",
      [devices.map((one) => one.id)],
    );

    expect((await report(device, { batteryLevel: 80 })).code).toBe('200');
    expect(await stateOf(device.id)).toBe('online');
    server.advance((window - 1) * 60);
    expect((await sweep()).offline).not.toContain(device.code);
    expect(await stateOf(device.id)).toBe('online');

    server.advance(2 * 60);
    const [first, second] = await Promise.all([sweep(), sweep()]);
    // Two sweeps at once (two instances): the device is marked offline by one of them.
    expect([...first.offline, ...second.offline].filter((code) => code === device.code)).toEqual([device.code]);
    expect(await stateOf(device.id)).toBe('offline');
    expect(await stateOf(seeded.id)).toBe('online');
    // The lists' counts (device_tally) follow the sweep's statement.
    const [tally] = await server.db.query<{ kept: number; counted: number }>(
      `SELECT (SELECT sum(t.online)::int FROM device_tally t JOIN device d ON d.product_code = t.product_code AND d.organization_code = t.organization_code WHERE d.id = $1) AS kept,
              (SELECT count(*)::int FROM device o JOIN device d ON d.product_code = o.product_code AND d.organization_code = o.organization_code
                WHERE d.id = $1 AND o.online_state = 'online' AND o.deleted_at IS NULL) AS counted`,
      [device.id],
    );
    expect(tally.kept).toBe(tally.counted);
    const [event] = await server.db.query<{ kind: string; payload: { deviceCode: string } }>(
      "SELECT kind, payload FROM live_event WHERE kind = 'device.offline' AND payload ->> 'deviceCode' = $1",
      [device.code],
    );
    expect(event).toEqual({ kind: 'device.offline', payload: { deviceCode: device.code } });
    // Offline, but not yet for the rule's 离线时长.
    expect(await alarmsOf(offline.id)).toEqual([]);

    server.advance(30 * 60);
    const raised = await Promise.all([sweep(), sweep()]);
    expect(raised.flatMap((result) => result.alarms).filter((alarm) => alarm.ruleId === offline.id)).toHaveLength(1);
    const [alarm] = await alarmsOf(offline.id);
    expect(alarm).toMatchObject({ state: 'pending', device_code: device.code, alarm_type: 'offline', content: `离线时长 ${window + 31}分钟（离线告警：离线时长 > ${window + 30}分钟）` });
    // Still offline: the same episode, nothing more.
    server.advance(60 * 60);
    expect((await sweep()).alarms.filter((one) => one.ruleId === offline.id)).toEqual([]);
    expect(await alarmsOf(offline.id)).toHaveLength(1);

    // It reports again: online, and the alarm recovers.
    const back = await report(device, { batteryLevel: 79 });
    expect(back.data.alarms.filter((one) => one.ruleId === offline.id)).toEqual([{ ruleId: offline.id, change: 'recovered', alarmCode: alarm.code }]);
    expect(await stateOf(device.id)).toBe('online');
    expect((await alarmsOf(offline.id))[0].state).toBe('recovered');
  });
});

describe('fault-code rules', () => {
  it('a report carrying the fault code raises once per episode, and one without it recovers', async () => {
    const device = devices[1];
    const fault = await rule({ name: '故障码测试', alarmType: 'fault', metric: 'fault_code', operator: 'eq', threshold: 42 });
    expect(fault.code, fault.message).toBe('200');
    const mine = (stored: Stored) => stored.alarms.filter((alarm) => alarm.ruleId === fault.id);

    // Another code, or no faultCodes at all: nothing.
    expect(mine((await report(device, { faultCodes: [7] })).data)).toEqual([]);
    expect(mine((await report(device, { batteryLevel: 70 })).data)).toEqual([]);
    const [raised] = mine((await report(device, { faultCodes: [7, 42] })).data);
    expect(raised).toMatchObject({ change: 'raised' });
    const [alarm] = await alarmsOf(fault.id);
    expect(alarm).toMatchObject({ state: 'pending', alarm_type: 'fault', content: '故障码 42（故障告警：故障码 = 42）' });
    // Still faulty: the same episode. A report without faultCodes changes nothing.
    expect(mine((await report(device, { faultCodes: [42] })).data)).toEqual([]);
    expect(mine((await report(device, { temperature: 20 })).data)).toEqual([]);
    expect(await alarmsOf(fault.id)).toHaveLength(1);
    // The fault is gone: recovered; it comes back: a new alarm.
    expect(mine((await report(device, { faultCodes: [] })).data)).toEqual([{ ruleId: fault.id, change: 'recovered', alarmCode: alarm.code }]);
    expect((await alarmsOf(fault.id))[0].state).toBe('recovered');
    expect(mine((await report(device, { faultCodes: [42] })).data)).toEqual([{ ruleId: fault.id, change: 'raised', alarmCode: expect.not.stringMatching(alarm.code) }]);
  });

  it('the simulator reports a fault for a while, then an empty list: the demo’s 设备故障告警 rises and recovers', async () => {
    // The first device never reported a fault (the second is in the demo rule's episode since its code 7).
    const device = devices[0];
    const [demo] = await server.db.query<{ id: number }>("SELECT id FROM alarm_rule WHERE tenant_code = 'T0001' AND alarm_type = 'fault' AND enabled ORDER BY id LIMIT 1");
    const simulated = new SimulatedDevice({ code: device.code, productCode: 'PRD-SD-NB', batteryLevel: 60, signalStrength: 20, temperature: 20 });
    const start = server.now().getTime();
    simulated.cross(start, 60, 'fault');
    const during = simulated.report(start);
    expect(during.faultCodes).toEqual([expect.any(Number)]);
    expect(during.faultCodes![0]).toBeGreaterThanOrEqual(1);
    expect(during.faultCodes![0]).toBeLessThanOrEqual(12);
    const raised = await report(device, during);
    expect(raised.data.alarms.filter((alarm) => alarm.ruleId === demo.id)).toEqual([{ ruleId: demo.id, change: 'raised', alarmCode: expect.any(String) }]);
    const after = simulated.report(start + 61_000);
    expect(after.faultCodes).toEqual([]);
    server.advance(62);
    const recovered = await report(device, after);
    expect(recovered.data.alarms.filter((alarm) => alarm.ruleId === demo.id)).toEqual([{ ruleId: demo.id, change: 'recovered', alarmCode: raised.data.alarms.find((alarm) => alarm.ruleId === demo.id)!.alarmCode }]);
    expect(simulated.report(start + 63_000).faultCodes).toBeUndefined();
  });

  it('refuses fault codes out of range and a rule whose type and metric do not fit', async () => {
    const device = devices[1];
    expect(await report(device, { faultCodes: [10000] })).toMatchObject({ code: '400', message: '上报内容不符合要求：/faultCodes/0 must be <= 9999' });
    expect(await report(device, { faultCodes: [1, 1] })).toMatchObject({ code: '400' });
    expect(await rule({ name: '故障指标错配', alarmType: 'fault', metric: 'temperature', threshold: 1 })).toMatchObject({ code: '400', message: '参数错误：metric（故障告警须使用故障码指标）' });
    expect(await rule({ name: '故障码错配', alarmType: 'threshold', metric: 'fault_code', threshold: 1 })).toMatchObject({ code: '400', message: '参数错误：alarmType（故障码指标只用于故障告警）' });
  });
});

describe('dev.device.silence (browser tests see a device go offline without waiting minutes)', () => {
  it('moves a reporting device\'s last report back, so the next sweep takes it offline; a device that never reported is refused', async () => {
    const [device] = devices;
    expect((await report(device, { signalStrength: 20 })).code).toBe('200');
    await sweep();
    expect(await stateOf(device.id)).toBe('online');
    const silenced = await server.call<{ silenced: number }>('dev.device.silence', { code: device.code, minutes: device.heartbeat * SILENCE_HEARTBEATS + 1 });
    expect(silenced).toMatchObject({ code: '200', data: { silenced: 1 } });
    expect((await sweep()).offline).toContain(device.code);
    expect(await stateOf(device.id)).toBe('offline');
    const [never] = await server.db.query<{ code: string }>("SELECT code FROM device WHERE tenant_code = 'T0002' AND last_reported_at IS NULL AND deleted_at IS NULL LIMIT 1");
    expect(await server.call('dev.device.silence', { code: never.code, minutes: 5 })).toMatchObject({ code: '404', message: '设备不存在或从未上报' });
    expect((await server.call('dev.device.silence', { code: device.code, minutes: 0 })).code).toBe('400');
  });
});

describe('offline rules of a product', () => {
  it('a gateway that stops reporting gets its own offline alarm (网关离线告警), not the general one too', async () => {
    // Last in the file: the clock moves five hours on, past the session's token.
    const [gateway] = await server.db.query<{ code: string }>(
      "SELECT code FROM device WHERE tenant_code = 'T0001' AND product_code = 'PRD-GW-4G' AND deleted_at IS NULL ORDER BY code LIMIT 1",
    );
    const secret = (await server.call<{ secret: string }>('device.credential.reset', { code: gateway.code }, { token: tadmin })).data!.secret;
    const rules = await server.db.query<{ product_code: string | null }>(
      "SELECT product_code FROM alarm_rule WHERE tenant_code = 'T0001' AND enabled AND alarm_type = 'offline' AND metric = 'offline_minutes'",
    );
    // The seed's 设备离线告警 (every product) and 网关离线告警 (the gateways) both watch it.
    expect(rules.map((row) => row.product_code)).toEqual(expect.arrayContaining([null, 'PRD-GW-4G']));
    const since = server.now();
    expect((await report({ code: gateway.code, secret }, { signalStrength: 20 })).code).toBe('200');
    // Silent past both rules' 离线时长.
    server.advance(300 * 60);
    await sweep();
    await sweep();
    const raised = await server.db.query<{ product_code: string | null }>(
      `SELECT r.product_code FROM alarm_record a JOIN alarm_rule r ON r.id = a.rule_id
        WHERE a.device_code = $1 AND a.alarm_type = 'offline' AND a.created_at >= $2`,
      [gateway.code, since],
    );
    expect(raised).toEqual([{ product_code: 'PRD-GW-4G' }]);
  });
});
