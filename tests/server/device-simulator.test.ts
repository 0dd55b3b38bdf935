// The device simulator (issue 22): dev.device.credentials issues secrets in bulk (dev mode only,
// live devices of one tenant), and the simulator's core, run in process against a test server's
// embedded broker, gets every message it sent acknowledged and every acknowledged one stored,
// puts its devices online, and a forced threshold crossing raises the rule's alarm.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, deviceBrokerOf } from '../../server/app';
import { defaultConfig } from '../../server/config';
import type { SimulatedDeviceCredential } from '../../server/operations/dev';
import { SimulatedDevice } from '../../scripts/simulator/readings';
import { startSimulation, type Simulation } from '../../scripts/simulator/run';
import { catalogue, startServer, type TestServer } from './harness';

let server: TestServer;
let brokerUrl: string;
const running: Simulation[] = [];

beforeAll(async () => {
  server = await startServer({ config: { mqttPort: 0, mqttHost: '127.0.0.1' } });
  brokerUrl = `mqtt://127.0.0.1:${deviceBrokerOf(server.app)!.port}`;
});
afterAll(async () => {
  await Promise.all(running.map((simulation) => simulation.stop(0)));
  await server.close();
});

const issue = async (param: { tenantCode?: string; count?: number }) => server.call<SimulatedDeviceCredential[]>('dev.device.credentials', param);

describe('dev.device.credentials', () => {
  it('is not routed without --dev', async () => {
    const production = await buildApp({ db: server.db, config: defaultConfig({ dev: false }) });
    try {
      const response = await production.inject({ method: 'POST', url: `/api${catalogue['dev.device.credentials'].path}`, payload: { param: { count: 3 } } });
      expect(response.json<{ code: string }>().code).toBe('404');
    } finally {
      await production.close();
    }
  });

  it('issues distinct secrets for live devices of the tenant only, the same devices each time, and the old secrets stop', async () => {
    const first = await issue({ tenantCode: 'T0002', count: 600 });
    expect(first.code).toBe('200');
    const devices = first.data!;
    // More than one batch of secrets.
    expect(devices).toHaveLength(600);
    expect(new Set(devices.map((device) => device.secret)).size).toBe(600);
    const rows = await server.db.query<{ code: string; tenant_code: string; deleted_at: Date | null; issued: boolean }>(
      `SELECT d.code, d.tenant_code, d.deleted_at, c.device_id IS NOT NULL AS issued
         FROM device d LEFT JOIN device_credential c ON c.device_id = d.id WHERE d.code = ANY($1)`,
      [devices.map((device) => device.code)],
    );
    expect(rows).toHaveLength(600);
    expect(rows.every((row) => row.tenant_code === 'T0002' && row.deleted_at === null && row.issued)).toBe(true);
    // The tenant's deleted devices exist and are left out.
    const [deleted] = await server.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM device WHERE tenant_code = 'T0002' AND deleted_at IS NOT NULL AND id < (SELECT max(id) FROM device WHERE code = ANY($1))",
      [devices.map((device) => device.code)],
    );
    expect(deleted.n).toBeGreaterThan(0);

    const again = (await issue({ tenantCode: 'T0002', count: 600 })).data!;
    expect(again.map((device) => device.code)).toEqual(devices.map((device) => device.code));
    expect(again.every((device, index) => device.secret !== devices[index].secret)).toBe(true);
    const report = (secret: string) =>
      server.post('/device/telemetry/_report', { batteryLevel: 50 }, { 'x-device-code': devices[0].code, 'x-device-secret': secret });
    expect((await report(devices[0].secret)).status).toBe(401);
    expect((await report(again[0].secret)).status).toBe(200);
  });

  it('defaults to 20 devices of T0001, and refuses a count out of range or a tenant without devices', async () => {
    const answer = (await issue({})).data!;
    expect(answer).toHaveLength(20);
    expect(answer.every((device) => device.tenantCode === 'T0001' && /^[A-Z0-9]{12}$/.test(device.code))).toBe(true);
    expect((await issue({ count: 0 })).code).toBe('400');
    expect((await issue({ count: 20_001 })).code).toBe('400');
    expect((await issue({ tenantCode: 'T0001; --' })).code).toBe('400');
    expect((await issue({ tenantCode: 'T0999' })).code).toBe('404');
  });
});

describe('the simulator', () => {
  it('reports at its rate; every acknowledged message is stored, its devices are online, and a forced crossing raises the rule’s alarm', async () => {
    const devices = (await issue({ tenantCode: 'T0001', count: 40 })).data!;
    // A smoke detector: the rule 烟雾报警 (smoke ≥ 0.1, no duration) raises an alarm on the first reading past it.
    const detector = devices.find((device) => device.productCode === 'PRD-SD-NB');
    expect(detector, 'a smoke detector among the first devices of T0001').toBeDefined();
    const driven = [detector!, ...devices.filter((device) => device !== detector).slice(0, 19)];
    const codes = driven.map((device) => device.code);
    const startedAt = new Date(Date.now() - 1);
    const [alarmsBefore] = await server.db.query<{ n: number }>("SELECT count(*)::int AS n FROM alarm_record WHERE device_code = $1 AND title LIKE '烟雾报警%'", [detector!.code]);

    const simulation = await startSimulation({ url: brokerUrl, devices: driven, rate: 40, seconds: 2.5, crossingChance: 0, reconnectMs: 0 });
    running.push(simulation);
    expect(simulation.stats().connected).toBe(20);
    simulation.cross(detector!.code, 'smoke', 60);
    const final = await simulation.done;

    expect(final.connectFailures).toBe(0);
    expect(final.failed).toBe(0);
    expect(final.inFlight).toBe(0);
    // 40 a second for 2.5 s (the timer's granularity aside): sent, or counted as behind when every
    // device was still waiting for its PUBACK (a slow machine).
    expect(final.sent + final.behind).toBeGreaterThanOrEqual(80);
    expect(final.sent).toBeGreaterThanOrEqual(20);
    expect(final.sent).toBeLessThanOrEqual(110);
    expect(final.acknowledged).toBe(final.sent);
    const [stored] = await server.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM device_telemetry t JOIN device d ON d.id = t.device_id WHERE d.code = ANY($1) AND t.reported_at >= $2',
      [codes, startedAt],
    );
    expect(stored.n).toBe(final.acknowledged);
    const states = await server.db.query<{ online_state: string; last_seen_at: Date }>('SELECT online_state, last_seen_at FROM device WHERE code = ANY($1)', [codes]);
    expect(states.map((row) => row.online_state)).toEqual(codes.map(() => 'online'));
    expect(states.every((row) => row.last_seen_at.getTime() >= startedAt.getTime())).toBe(true);

    const alarms = await server.db.query<{ state: string; content: string }>(
      "SELECT state, content FROM alarm_record WHERE device_code = $1 AND title LIKE '烟雾报警%' ORDER BY id DESC",
      [detector!.code],
    );
    expect(alarms.length - alarmsBefore.n).toBe(1);
    expect(alarms[0]).toMatchObject({ state: 'pending', content: expect.stringMatching(/^烟雾浓度 0\.\d+/) as unknown });
  });

  it('reads like the product: readings in range, a battery that drains slowly, a signal that wanders, strictly later reports', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const meter = new SimulatedDevice({ code: 'WMNB01000001', productCode: 'PRD-WM-NB', batteryLevel: 60, signalStrength: 18, temperature: 20 }, random);
    const start = Date.parse('2026-03-01T00:00:00Z');
    const reports = Array.from({ length: 2000 }, () => meter.report(start));
    expect(new Set(reports.map((report) => report.reportedAt)).size).toBe(2000);
    expect(reports.every((report) => Object.keys(report.metrics).sort().join() === 'flowRate,totalFlow')).toBe(true);
    const batteries = reports.map((report) => report.batteryLevel!);
    expect(batteries[0]).toBe(60);
    expect(batteries.at(-1)!).toBeLessThan(60);
    expect(batteries.at(-1)!).toBeGreaterThan(30);
    expect(batteries.every((level, index) => index === 0 || level <= batteries[index - 1])).toBe(true);
    const signals = reports.map((report) => report.signalStrength!);
    expect(new Set(signals).size).toBeGreaterThan(2);
    expect(signals.every((signal) => signal >= 0 && signal <= 31 && Math.abs(signal - 18) <= 8)).toBe(true);
    // No temperature crossing unless one is under way.
    expect(reports.every((report) => report.temperature! > 2 && report.temperature! < 38)).toBe(true);
    meter.cross(start, 60, 'frost');
    expect(meter.report(start).temperature!).toBeLessThan(2);
    const gauge = new SimulatedDevice({ code: 'PGNB01000001', productCode: 'PRD-PG-NB', batteryLevel: null, signalStrength: null, temperature: null }, random);
    expect(Array.from({ length: 500 }, () => gauge.report(start).metrics.pressure).every((value) => value > 0.15 && value < 0.75)).toBe(true);
  });
});
