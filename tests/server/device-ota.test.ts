// Firmware over the air end to end (issue 31): an upgrade task's target is offered its package as an
// `ota` command over the embedded broker; the simulator's device code (scripts/simulator/ota.ts)
// downloads the image in Range pieces from the signed url, checks its SHA-256, installs it and
// reports each step in its telemetry, and the target and the task's counts follow those reports:
// downloading → installing → succeeded, the device at the new version. An image that does not match
// its SHA-256 fails the target with the device's message; a report of another task, for a finished
// target, or going backwards changes nothing; a target whose device never answers, or stops part
// way, fails at the task's time limit with the reason.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otaCommandOf, runOta, type OtaDevice } from '../../scripts/simulator/ota';
import { startSimulation, type Simulation } from '../../scripts/simulator/run';
import {
  firmwareImage,
  freePort,
  idleDevice,
  packageWith,
  runChecks,
  startOtaServer,
  taskDetail,
  targetOf,
  until,
  type OtaServer,
  type TargetRow,
  type TaskCounts,
} from './device-ota-helpers';

let server: OtaServer;
let tadmin: string;
const clients: MqttClient[] = [];
const simulations: Simulation[] = [];

beforeAll(async () => {
  server = await startOtaServer();
  tadmin = await server.login('tadmin');
});
afterAll(async () => {
  await Promise.all(simulations.map((simulation) => simulation.stop(0)));
  await Promise.all(clients.map((client) => client.endAsync(true)));
  await server.close();
});

interface Seen {
  state: string;
  target: TargetRow;
  task: TaskCounts;
}

/**
 * A device driven by the simulator's OTA code: it signs in, subscribes to its commands, answers an
 * `ota` command `ok` and runs the upgrade, each report published QoS 1 (the PUBACK comes once the
 * platform stored it). After each report the target and its task are read: what the console shows then.
 */
async function otaDevice(credential: { code: string; secret: string; firmware: string }, taskId: () => number) {
  const client = await mqtt.connectAsync(server.brokerUrl, { clientId: credential.code, username: credential.code, password: credential.secret, reconnectPeriod: 0 });
  clients.push(client);
  const device: OtaDevice = { firmwareVersion: credential.firmware };
  const seen: Seen[] = [];
  let settled: (outcome: string) => void = () => undefined;
  const outcome = new Promise<string>((resolve) => {
    settled = resolve;
  });
  const publish = async (report: Record<string, unknown>) => {
    await client.publishAsync(`devices/${credential.code}/telemetry`, JSON.stringify(report), { qos: 1 });
    const state = (report.ota as { state: string }).state;
    seen.push({ state, target: await targetOf(server, tadmin, taskId(), credential.code), task: await taskDetail(server, tadmin, taskId()) });
  };
  client.on('message', (topic, payload) => {
    const message = JSON.parse(payload.toString()) as { id: number; type: string; parameters: Record<string, unknown> };
    if (message.type !== 'ota') return;
    const command = otaCommandOf(message.parameters);
    // (Answered without waiting; a publish cut off by the test's end is no failure of the platform.)
    client.publishAsync(`devices/${credential.code}/commands/reply`, JSON.stringify({ id: message.id, result: command ? 'ok' : 'failed' }), { qos: 1 }).catch(() => undefined);
    if (command) void runOta(device, command, { publish, random: () => 0.99, pieceBytes: 16 * 1024, installMs: 20 }).then(settled);
  });
  await client.subscribeAsync(`devices/${credential.code}/commands`, { qos: 1 });
  return { client, device, seen, outcome };
}

async function newTask(name: string, packageId: number, codes: string[], timeLimitMinutes?: number): Promise<{ id: number; code: string }> {
  const reply = await server.call<{ id: number; code: string }>(
    'upgrade.task.insert',
    { task: { name, packageId, organizationCode: 'T0001', deviceCodes: codes, ...(timeLimitMinutes ? { timeLimitMinutes } : {}) } },
    { token: tadmin },
  );
  expect(reply.code, reply.message).toBe('200');
  return reply.data!;
}

describe('an upgrade task on a device running the simulator’s OTA code', () => {
  it('goes downloading → installing → succeeded from the device’s reports, the task’s counts following, the device at the new version', async () => {
    const image = firmwareImage(100_000);
    const pkg = await packageWith(server, tadmin, 'PRD-FM-4G', '9.9.0', image.content);
    const credential = await idleDevice(server, tadmin, 'T0001', 'PRD-FM-4G');
    let taskId = 0;
    const device = await otaDevice(credential, () => taskId);
    const task = await newTask('端到端升级', pkg.id, [credential.code]);
    taskId = task.id;
    expect(await device.outcome).toBe('succeeded');
    const states = device.seen.map((entry) => entry.state);
    expect(states[0]).toBe('downloading');
    expect(states.slice(-2)).toEqual(['installing', 'succeeded']);
    // 100 kB in 16 KiB pieces: a report each tenth of the way.
    expect(states.filter((state) => state === 'downloading').length).toBeGreaterThan(3);
    for (const entry of device.seen.filter((e) => e.state === 'downloading' || e.state === 'installing')) {
      expect(entry.target).toMatchObject({ state: 'upgrading', phase: entry.state });
      expect(entry.task).toMatchObject({ state: 'upgrading', upgradingCount: 1, succeededCount: 0, failedCount: 0 });
    }
    const progress = device.seen.map((entry) => entry.target.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(device.seen.at(-1)!.target).toMatchObject({ state: 'succeeded', progress: 100, currentVersion: '9.9.0', errorMessage: '' });
    expect(device.seen.at(-1)!.task).toMatchObject({ state: 'succeeded', upgradingCount: 0, succeededCount: 1 });
    const [row] = await server.db.query<{ firmware_version: string }>('SELECT firmware_version FROM device WHERE code = $1', [credential.code]);
    expect(row.firmware_version).toBe('9.9.0');
    expect(device.device.firmwareVersion).toBe('9.9.0');
    // The device answered the command: acknowledged.
    const [command] = await server.db.query<{ state: string }>('SELECT c.state FROM upgrade_task_device td JOIN device_command c ON c.id = td.command_id WHERE td.task_id = $1', [task.id]);
    expect(command.state).toBe('acknowledged');

    // A finished target stays as it is: a late report, a failure afterwards, another task's code change nothing.
    const late = async (ota: Record<string, unknown>) => device.client.publishAsync(`devices/${credential.code}/telemetry`, JSON.stringify({ ota }), { qos: 1 });
    await late({ taskCode: task.code, state: 'failed', progress: 10, message: '迟到的失败' });
    await late({ taskCode: 'OTA000000000000', state: 'downloading', progress: 50 });
    expect(await targetOf(server, tadmin, task.id, credential.code)).toMatchObject({ state: 'succeeded', progress: 100, errorMessage: '' });
  });

  it('fails the target with the device’s message when the image does not match its SHA-256', async () => {
    const image = firmwareImage(40_000);
    const pkg = await packageWith(server, tadmin, 'PRD-FM-4G', '9.9.1', image.content);
    // The stored bytes change after the platform read them (a damaged disk, a tampered copy): same size, another digest.
    writeFileSync(join(server.fileDir, pkg.path), firmwareImage(40_000).content);
    const credential = await idleDevice(server, tadmin, 'T0001', 'PRD-FM-4G');
    let taskId = 0;
    const device = await otaDevice(credential, () => taskId);
    taskId = (await newTask('校验失败升级', pkg.id, [credential.code])).id;
    expect(await device.outcome).toBe('failed');
    const last = device.seen.at(-1)!;
    expect(last.state).toBe('failed');
    expect(last.target).toMatchObject({ state: 'failed', currentVersion: credential.firmware });
    expect(last.target.errorMessage).toMatch(/^固件校验失败：SHA-256 不一致（下载 [0-9a-f]{12}…，应为 [0-9a-f]{12}…）$/);
    expect(last.task).toMatchObject({ state: 'failed', failedCount: 1, upgradingCount: 0, succeededCount: 0 });
    expect(device.device.firmwareVersion).toBe(credential.firmware);
  });
});

describe('the simulator’s download', () => {
  it('fails with the reason when the platform refuses the url or nobody answers at its address', async () => {
    const reports: Array<Record<string, unknown>> = [];
    const device: OtaDevice = { firmwareVersion: '1.0.0' };
    const command = { version: '9.0.0', size: 1000, sha256: 'a'.repeat(64), taskCode: 'OTA000000000001' };
    const publish = async (report: Record<string, unknown>) => {
      reports.push(report);
    };
    const refused = await runOta(device, { ...command, url: `${server.origin}/files/firmware/2026/12/${'0'.repeat(32)}.bin?ticket=none` }, { publish, installMs: 0 });
    expect(refused).toBe('failed');
    expect(reports.at(-1)).toEqual({ ota: { taskCode: 'OTA000000000001', state: 'failed', progress: 0, message: '固件下载失败（HTTP 403）' } });
    const closed = await freePort();
    expect(await runOta(device, { ...command, url: `http://127.0.0.1:${closed}/fw.bin` }, { publish, installMs: 0 })).toBe('failed');
    expect(reports.at(-1)).toEqual({ ota: { taskCode: 'OTA000000000001', state: 'failed', progress: 0, message: `固件下载失败：无法连接 127.0.0.1:${closed}（ECONNREFUSED）` } });
    expect(device.firmwareVersion).toBe('1.0.0');
  });
});

describe('npm run simulate’s devices', () => {
  it('answer an ota command through the simulator’s command handlers and upgrade, the console following', async () => {
    const image = firmwareImage(300_000);
    const pkg = await packageWith(server, tadmin, 'PRD-FM-4G', '9.8.0', image.content);
    const credential = await idleDevice(server, tadmin, 'T0001', 'PRD-FM-4G');
    // The simulator as `npm run simulate` runs it, without readings of its own (rate 0): only what the commands make it say.
    const answered: string[] = [];
    const simulation = await startSimulation({
      url: server.brokerUrl,
      devices: [{ code: credential.code, secret: credential.secret, productCode: 'PRD-FM-4G', batteryLevel: null, signalStrength: 20, temperature: 20 }],
      rate: 0,
      crossingChance: 0,
      reconnectMs: 0,
      random: () => 0.5,
      onCommand: (_code, type, result) => answered.push(`${type} ${result}`),
    });
    simulations.push(simulation);
    expect(simulation.stats().connected).toBe(1);
    const task = await newTask('模拟器升级', pkg.id, [credential.code]);
    // Installing takes the simulator 3 s: the console sees it.
    const phases = new Set<string>();
    const done = await until(
      'the target',
      async () => {
        const target = await targetOf(server, tadmin, task.id, credential.code);
        phases.add(`${target.state}/${target.phase}`);
        return target;
      },
      (target) => target.state === 'succeeded' || target.state === 'failed',
      20_000,
    );
    expect(done).toMatchObject({ state: 'succeeded', progress: 100, currentVersion: '9.8.0' });
    expect(phases).toContain('upgrading/installing');
    expect(answered).toEqual(['ota ok']);
    expect(await taskDetail(server, tadmin, task.id)).toMatchObject({ state: 'succeeded', succeededCount: 1 });
  });
});

describe('reports that change nothing', () => {
  it('a report going backwards, of an earlier phase, not a progress report, or claiming a version that is not the task’s', async () => {
    const pkg = await packageWith(server, tadmin, 'PRD-FM-4G', '9.9.2', firmwareImage(1000).content);
    const credential = await idleDevice(server, tadmin, 'T0001', 'PRD-FM-4G');
    const task = await newTask('倒退上报', pkg.id, [credential.code]);
    const client = await mqtt.connectAsync(server.brokerUrl, { clientId: credential.code, username: credential.code, password: credential.secret, reconnectPeriod: 0 });
    clients.push(client);
    const report = (body: Record<string, unknown>) => client.publishAsync(`devices/${credential.code}/telemetry`, JSON.stringify(body), { qos: 1 });
    const target = () => targetOf(server, tadmin, task.id, credential.code);
    // Over HTTP the same report does the same; what is not a progress report is refused, and changes nothing.
    const http = (body: unknown) => server.post('/device/telemetry/_report', body as object, { 'x-device-code': credential.code, 'x-device-secret': credential.secret });
    expect((await http({ ota: { taskCode: task.code, state: 'downloading', progress: 30 } })).status).toBe(200);
    expect(await target()).toMatchObject({ state: 'upgrading', phase: 'downloading', progress: 30 });
    for (const bad of [
      { ota: { taskCode: task.code, state: 'flashing', progress: 40 } },
      { ota: { taskCode: task.code, state: 'downloading', progress: 101 } },
      { ota: { taskCode: task.code, state: 'failed', progress: 40, message: '坏\n消息' } },
      { ota: { state: 'downloading', progress: 40 } },
      { ota: { taskCode: task.code, state: 'downloading', progress: 40, extra: 1 } },
      { firmwareVersion: '' },
    ]) {
      expect((await http(bad)).body, JSON.stringify(bad)).toMatchObject({ code: '400', message: expect.stringMatching(/^上报内容不符合要求：\/(ota|firmwareVersion)/) });
    }
    expect(await target()).toMatchObject({ state: 'upgrading', phase: 'downloading', progress: 30 });
    await report({ ota: { taskCode: task.code, state: 'installing', progress: 92 } });
    expect(await target()).toMatchObject({ state: 'upgrading', phase: 'installing', progress: 92 });
    await report({ ota: { taskCode: task.code, state: 'downloading', progress: 95 } });
    await report({ ota: { taskCode: task.code, state: 'installing', progress: 60 } });
    expect(await target()).toMatchObject({ state: 'upgrading', phase: 'installing', progress: 92 });
    // Succeeded while still running the old version: the platform says so.
    await report({ ota: { taskCode: task.code, state: 'succeeded', progress: 100 }, firmwareVersion: '9.9.1' });
    expect(await target()).toMatchObject({ state: 'failed', errorMessage: '升级后设备上报版本 9.9.1 与目标版本 9.9.2 不一致' });
    // The report itself was taken: the device runs what it said.
    const [row] = await server.db.query<{ firmware_version: string }>('SELECT firmware_version FROM device WHERE code = $1', [credential.code]);
    expect(row.firmware_version).toBe('9.9.1');
  });
});

describe('the periodic check on several instances', () => {
  it('offers a scheduled task’s targets once each when two checks run at once', async () => {
    const pkg = await packageWith(server, tadmin, 'PRD-FM-4G', '9.9.5', firmwareImage(1000).content);
    const codes = (
      await server.db.query<{ code: string }>(
        `SELECT code FROM device d WHERE tenant_code = 'T0001' AND product_code = 'PRD-FM-4G' AND deleted_at IS NULL AND online_state <> 'inactive'
            AND NOT EXISTS (SELECT 1 FROM upgrade_task_device td WHERE td.device_code = d.code AND td.state IN ('pending', 'upgrading'))
          ORDER BY code DESC LIMIT 30`,
      )
    ).map((row) => row.code);
    expect(codes).toHaveLength(30);
    const reply = await server.call<{ id: number }>(
      'upgrade.task.insert',
      { task: { name: '计划升级', packageId: pkg.id, organizationCode: 'T0001', deviceCodes: codes, scheduledAt: new Date(server.now().getTime() + 3_600_000).toISOString() } },
      { token: tadmin },
    );
    expect(reply.code, reply.message).toBe('200');
    server.advance(3600 + 60);
    const [first, second] = await Promise.all([runChecks(server), runChecks(server)]);
    const commands = await server.db.query<{ device_code: string; commands: number; offered: boolean }>(
      `SELECT td.device_code, td.command_id IS NOT NULL AS offered,
              (SELECT count(*)::int FROM device_command c JOIN device d ON d.id = c.device_id WHERE d.code = td.device_code AND c.command_type = 'ota' AND c.parameters ->> 'version' = '9.9.5') AS commands
         FROM upgrade_task_device td WHERE td.task_id = $1`,
      [reply.data!.id],
    );
    expect(commands.every((row) => row.offered && row.commands === 1)).toBe(true);
    expect(first.offered + second.offered).toBeGreaterThanOrEqual(30);
  });
});

describe('the task’s time limit', () => {
  it('fails a target whose device never answers, and one that stopped part way, with the reason', async () => {
    const pkg = await packageWith(server, tadmin, 'PRD-FM-4G', '9.9.3', firmwareImage(1000).content);
    const silent = await idleDevice(server, tadmin, 'T0001', 'PRD-FM-4G');
    const stuck = await idleDevice(server, tadmin, 'T0001', 'PRD-FM-4G', [silent.code]);
    const task = await newTask('超时升级', pkg.id, [silent.code, stuck.code], 30);
    const client = await mqtt.connectAsync(server.brokerUrl, { clientId: stuck.code, username: stuck.code, password: stuck.secret, reconnectPeriod: 0 });
    clients.push(client);
    await client.publishAsync(`devices/${stuck.code}/telemetry`, JSON.stringify({ ota: { taskCode: task.code, state: 'downloading', progress: 37 } }), { qos: 1 });
    server.advance(29 * 60);
    await runChecks(server);
    expect(await taskDetail(server, tadmin, task.id)).toMatchObject({ state: 'upgrading', pendingCount: 1, upgradingCount: 1 });
    server.advance(2 * 60);
    // Past the deadline, before the check: the target is the check's to fail, whatever the device says now.
    await client.publishAsync(`devices/${stuck.code}/telemetry`, JSON.stringify({ ota: { taskCode: task.code, state: 'downloading', progress: 60 } }), { qos: 1 });
    expect(await targetOf(server, tadmin, task.id, stuck.code)).toMatchObject({ state: 'upgrading', progress: 37 });
    await runChecks(server);
    expect(await taskDetail(server, tadmin, task.id)).toMatchObject({ state: 'failed', failedCount: 2 });
    expect(await targetOf(server, tadmin, task.id, silent.code)).toMatchObject({ state: 'failed', errorMessage: '升级超时：设备30 分钟内未上线，未收到升级指令' });
    expect(await targetOf(server, tadmin, task.id, stuck.code)).toMatchObject({ state: 'failed', errorMessage: '升级超时：30 分钟内未完成，停在下载中（37%）' });
    // Reports after the deadline change nothing; the check again fails nothing twice.
    await client.publishAsync(`devices/${stuck.code}/telemetry`, JSON.stringify({ ota: { taskCode: task.code, state: 'downloading', progress: 80 } }), { qos: 1 });
    expect(await targetOf(server, tadmin, task.id, stuck.code)).toMatchObject({ state: 'failed', progress: 37 });
    expect((await runChecks(server)).failed).toBe(0);
    expect(await taskDetail(server, tadmin, task.id)).toMatchObject({ failedCount: 2 });
  });

  it('fails a target whose device refused the ota command, with the device’s message', async () => {
    const pkg = await packageWith(server, tadmin, 'PRD-FM-4G', '9.9.4', firmwareImage(1000).content);
    const credential = await idleDevice(server, tadmin, 'T0001', 'PRD-FM-4G');
    const client = await mqtt.connectAsync(server.brokerUrl, { clientId: credential.code, username: credential.code, password: credential.secret, reconnectPeriod: 0 });
    clients.push(client);
    client.on('message', (_topic, payload) => {
      const { id } = JSON.parse(payload.toString()) as { id: number };
      client.publishAsync(`devices/${credential.code}/commands/reply`, JSON.stringify({ id, result: 'failed', message: '电量过低，暂不升级' }), { qos: 1 }).catch(() => undefined);
    });
    await client.subscribeAsync(`devices/${credential.code}/commands`, { qos: 1 });
    const task = await newTask('拒绝升级', pkg.id, [credential.code]);
    const commandState = async () =>
      (await server.db.query<{ state: string }>('SELECT c.state FROM upgrade_task_device td JOIN device_command c ON c.id = td.command_id WHERE td.task_id = $1', [task.id]))[0].state;
    await until('the ota command', commandState, (state) => state === 'failed');
    await runChecks(server);
    expect(await targetOf(server, tadmin, task.id, credential.code)).toMatchObject({ state: 'failed', errorMessage: '设备拒绝升级：电量过低，暂不升级' });
    expect(await taskDetail(server, tadmin, task.id)).toMatchObject({ state: 'failed', failedCount: 1 });
  });
});
