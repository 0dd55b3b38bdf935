// `npm run simulate` answers commands as a device would (issue 31): its devices subscribe to their
// command topics, and the console's commands come back acknowledged with the device's message — a
// closed valve shows in the meter's next metrics, a reboot drops the device off and it signs in again
// (and takes the next command), a new report interval spaces its reports. The handling itself
// (scripts/simulator/commands.ts): one answer per command id, failed for a command past its expiry,
// of an unknown type, or one the device has no part for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceBrokerOf } from '../../server/app';
import type { SimulatedDeviceCredential } from '../../server/operations/dev';
import { CommandTaker, type CommandAnswer, type CommandContext, type IncomingCommand } from '../../scripts/simulator/commands';
import { SimulatedDevice } from '../../scripts/simulator/readings';
import { startSimulation, type Simulation } from '../../scripts/simulator/run';
import { detailOnce, generate } from './device-commands-helpers';
import { startServer, type TestServer } from './harness';

let server: TestServer;
let tadmin: string;
let brokerUrl: string;
let simulation: Simulation;
let meter: SimulatedDeviceCredential;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  server = await startServer({ config: { mqttPort: 0, mqttHost: '127.0.0.1' } });
  tadmin = await server.login('tadmin');
  brokerUrl = `mqtt://127.0.0.1:${deviceBrokerOf(server.app)!.port}`;
  const devices = (await server.call<SimulatedDeviceCredential[]>('dev.device.credentials', { tenantCode: 'T0001', count: 60 })).data!;
  const found = devices.find((device) => device.productCode === 'PRD-WM-NB');
  expect(found, 'a water meter among the first devices of T0001').toBeDefined();
  meter = found!;
  const [row] = await server.db.query<{ online_state: string }>('SELECT online_state FROM device WHERE code = $1', [meter.code]);
  expect(row.online_state).not.toBe('inactive');
  simulation = await startSimulation({ url: brokerUrl, devices: [meter], rate: 20, crossingChance: 0, reconnectMs: 200 });
});
afterAll(async () => {
  await simulation?.stop(0);
  await server.close();
});

/** The meter's newest stored metrics once `holds` is true of them. */
async function latestMetricsOnce(holds: (metrics: Record<string, number>) => boolean): Promise<Record<string, number>> {
  for (;;) {
    const [row] = await server.db.query<{ metrics: Record<string, number> }>(
      'SELECT t.metrics FROM device_telemetry t JOIN device d ON d.id = t.device_id WHERE d.code = $1 ORDER BY t.reported_at DESC LIMIT 1',
      [meter.code],
    );
    if (row && holds(row.metrics)) return row.metrics;
    await pause(20);
  }
}

describe('the simulator’s devices', () => {
  it('close a valve when told, and say so in their next metrics', async () => {
    const id = await generate(server, tadmin, meter.code, 'valve_close');
    expect(await detailOnce(server, tadmin, id, (detail) => detail.state === 'acknowledged')).toMatchObject({ result: 'ok', message: '阀门已关闭' });
    expect(await latestMetricsOnce((metrics) => metrics.valveOpen === 0)).toMatchObject({ valveOpen: 0, flowRate: 0 });
    const open = await generate(server, tadmin, meter.code, 'valve_open');
    await detailOnce(server, tadmin, open, (detail) => detail.state === 'acknowledged');
    expect((await latestMetricsOnce((metrics) => metrics.valveOpen === 1)).valveOpen).toBe(1);
  });

  it('reboot: answer, drop off, sign in again, and take the next command', async () => {
    const before = simulation.stats().disconnects;
    const id = await generate(server, tadmin, meter.code, 'reboot');
    expect(await detailOnce(server, tadmin, id, (detail) => detail.state === 'acknowledged')).toMatchObject({ message: '设备即将重启' });
    while (simulation.stats().disconnects === before) await pause(20);
    const sync = await generate(server, tadmin, meter.code, 'time_sync');
    expect(await detailOnce(server, tadmin, sync, (detail) => detail.state === 'acknowledged')).toMatchObject({ result: 'ok', message: '已校时' });
    expect(simulation.stats().connected).toBe(1);
  });

  it('report_interval: acknowledged, and the device reports once an interval from then on', async () => {
    const id = await generate(server, tadmin, meter.code, 'report_interval', 5);
    expect(await detailOnce(server, tadmin, id, (detail) => detail.state === 'acknowledged')).toMatchObject({ message: '上报周期已设为 5 分钟' });
    // The pace itself, on the device's own clock.
    const device = new SimulatedDevice({ code: 'WMNB01000001', productCode: 'PRD-WM-NB', batteryLevel: 60, signalStrength: 18, temperature: 20 });
    const start = Date.parse('2026-03-01T00:00:00Z');
    expect(device.due(start)).toBe(true);
    device.report(start);
    expect(device.due(start + 1000)).toBe(true);
    device.reportEveryMs(5 * 60_000);
    expect(device.due(start + 1000)).toBe(false);
    expect(device.due(start + 5 * 60_000 - 1)).toBe(false);
    expect(device.due(start + 5 * 60_000)).toBe(true);
  });
});

describe('a device’s command handling', () => {
  const command = (id: number, type: string, parameters: Record<string, unknown> = {}, expiresAt = '2099-01-01T00:00:00.000Z'): string =>
    JSON.stringify({ id, type, parameters, text: '', hex: '', expiresAt } satisfies IncomingCommand);

  it('answers each id once; failed for an expired command, an unknown type or a part the device lacks', async () => {
    const answers: Array<CommandAnswer & { id: number }> = [];
    const meterDevice = new SimulatedDevice({ code: 'WMNB01000002', productCode: 'PRD-WM-NB', batteryLevel: 60, signalStrength: 18, temperature: 20 });
    const context: CommandContext = { device: meterDevice, publish: async () => undefined, reconnect: async () => undefined, random: Math.random };
    const taker = new CommandTaker(context, async (answer) => {
      answers.push(answer);
    });
    expect(await taker.take(command(1, 'valve_close'))).toEqual({ type: 'valve_close', result: 'ok' });
    expect(await taker.take(command(1, 'valve_close'))).toBeNull();
    expect(await taker.take('not a command')).toBeNull();
    expect(await taker.take(command(2, 'silence'))).toEqual({ type: 'silence', result: 'failed' });
    expect(await taker.take(command(3, 'self_destruct'))).toEqual({ type: 'self_destruct', result: 'failed' });
    expect(await taker.take(command(4, 'reboot', {}, '2020-01-01T00:00:00.000Z'))).toEqual({ type: 'reboot', result: 'failed' });
    expect(await taker.take(command(5, 'report_interval', { intervalMinutes: 'often' }))).toEqual({ type: 'report_interval', result: 'failed' });
    expect(answers.map(({ id, result, message }) => [id, result, message])).toEqual([
      [1, 'ok', '阀门已关闭'],
      [2, 'failed', '该设备没有蜂鸣器'],
      [3, 'failed', '不支持的指令：self_destruct'],
      [4, 'failed', '指令已过期'],
      [5, 'failed', '上报周期不合法'],
    ]);
    // The valve shows in the meter's next report.
    expect(meterDevice.report(Date.now()).metrics).toMatchObject({ valveOpen: 0, flowRate: 0 });
  });
});
