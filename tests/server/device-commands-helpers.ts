// Devices that take commands (issue 31) for the device-commands*.test.ts files: a device's MQTT
// connection subscribed to its command topic, the commands it receives in order, and a wait for the
// state a command reaches.
import mqtt, { type MqttClient } from 'mqtt';
import { expect } from 'vitest';
import type { TestServer } from './harness';

export interface TestDevice {
  id: number;
  code: string;
  secret: string;
}

/** What the platform sends on `devices/<code>/commands`: the fixed wire format. */
export interface WireCommand {
  id: number;
  type: string;
  parameters: Record<string, unknown>;
  text: string;
  hex: string;
  expiresAt: string;
}

export interface CommandDetail {
  id: number;
  code: string;
  commandType: string;
  state: string;
  createTime: string;
  sentTime: string | null;
  replyTime: string | null;
  result: string | null;
  message: string | null;
}

/** A device's connection: the commands it received, in order, and the next one to come. */
export interface CommandedDevice {
  client: MqttClient;
  received: WireCommand[];
  /** The next command not yet taken by next() (waits for it). */
  next(): Promise<WireCommand>;
}

/** T0001's live water meters (they take every command type), each with a new secret. */
export async function commandableDevices(server: TestServer, token: string, count: number, offset = 0): Promise<TestDevice[]> {
  const rows = await server.db.query<{ id: number; code: string }>(
    `SELECT d.id, d.code FROM device d
      WHERE d.tenant_code = 'T0001' AND d.deleted_at IS NULL AND d.online_state <> 'inactive' AND d.product_code = 'PRD-WM-NB'
        AND NOT EXISTS (SELECT 1 FROM device s WHERE s.gateway_code = d.code)
      ORDER BY d.code LIMIT $1 OFFSET $2`,
    [count, offset],
  );
  const devices: TestDevice[] = [];
  for (const row of rows) {
    const answer = await server.call<{ secret: string }>('device.credential.reset', { code: row.code }, { token });
    expect(answer.code).toBe('200');
    devices.push({ ...row, secret: answer.data!.secret });
  }
  expect(devices).toHaveLength(count);
  return devices;
}

/** Signs the device in to `url` and subscribes it to its command topic (QoS 1 unless told). */
export async function connectDevice(url: string, device: TestDevice, { qos = 1 as 0 | 1, subscribe = true } = {}): Promise<CommandedDevice> {
  const client = await mqtt.connectAsync(url, { username: device.code, password: device.secret, clientId: device.code, reconnectPeriod: 0, connectTimeout: 5000 });
  const received: WireCommand[] = [];
  const waiting: Array<(command: WireCommand) => void> = [];
  let taken = 0;
  client.on('message', (topic, payload) => {
    if (topic !== `devices/${device.code}/commands`) return;
    received.push(JSON.parse(payload.toString()) as WireCommand);
    while (waiting.length > 0 && taken < received.length) waiting.shift()!(received[taken++]);
  });
  if (subscribe) await client.subscribeAsync(`devices/${device.code}/commands`, { qos });
  return {
    client,
    received,
    next: () =>
      new Promise<WireCommand>((resolve) => {
        if (taken < received.length) resolve(received[taken++]);
        else waiting.push(resolve);
      }),
  };
}

/** Publishes a reply on the device's reply topic (resolves at its PUBACK: the platform has handled it). */
export async function replyTo(client: MqttClient, code: string, reply: unknown): Promise<void> {
  await client.publishAsync(`devices/${code}/commands/reply`, typeof reply === 'string' ? reply : JSON.stringify(reply), { qos: 1 });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The command's detail once `holds` is true of it (asked again every few milliseconds; the test's own timeout bounds the wait). */
export async function detailOnce(server: TestServer, token: string, id: number, holds: (detail: CommandDetail) => boolean): Promise<CommandDetail> {
  for (;;) {
    const answer = await server.call<CommandDetail>('deviceAccess.command.detail', { id }, { token });
    expect(answer.code).toBe('200');
    if (holds(answer.data!)) return answer.data!;
    await pause(20);
  }
}

/** The states the live console was told of for a command, in order. */
export async function toldStates(server: TestServer, id: number): Promise<string[]> {
  const rows = await server.db.query<{ state: string }>(
    "SELECT payload->>'state' AS state FROM live_event WHERE kind = 'command.updated' AND payload->>'commandId' = $1 ORDER BY id",
    [String(id)],
  );
  return rows.map((row) => row.state);
}

/** A command's row as stored. */
export async function storedCommand(server: TestServer, id: number): Promise<{ state: string; sent_at: Date | null; replied_at: Date | null }> {
  const [row] = await server.db.query<{ state: string; sent_at: Date | null; replied_at: Date | null }>('SELECT state, sent_at, replied_at FROM device_command WHERE id = $1', [id]);
  return row;
}

/** The count of `iot_device_command_replies_total` for a transport and an outcome. */
export function replyCount(metricsText: string, transport: 'mqtt' | 'http', outcome: string): number {
  return Number(new RegExp(`^iot_device_command_replies_total\\{transport="${transport}",outcome="${outcome}"\\} (\\d+)$`, 'm').exec(metricsText)?.[1] ?? 0);
}

/** Generates a command from the console; answers its id. */
export async function generate(server: TestServer, token: string, code: string, commandType: string, intervalMinutes?: number): Promise<number> {
  const answer = await server.call<{ id: number; state: string }>('deviceAccess.command.generate', { code, commandType, ...(intervalMinutes ? { intervalMinutes } : {}) }, { token });
  expect(answer.code, answer.message).toBe('200');
  expect(answer.data!.state).toBe('pending');
  return answer.data!.id;
}
