// Devices against a real Mosquitto (issue 36) for the mosquitto-*.test.ts files: a device's MQTT 5
// connection, a wait for the broker to have confirmed a device's account, and the readings stored.
import mqtt, { type MqttClient } from 'mqtt';
import type { Queryable } from '../../server/db/database';

export const PLATFORM = { user: 'iot-platform', password: 'platform-broker-password-3636' };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks again every 50 ms until `done` holds (the test's own timeout bounds the wait); answers the last value. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, limitMs = 20_000): Promise<T> {
  const until = Date.now() + limitMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await pause(50);
  }
}

/** A device's connection to the broker as itself (username and client id its code), MQTT 5: a refused publish or subscription says so. */
export function connectDevice(port: number, code: string, secret: string, clientId = code): Promise<MqttClient> {
  return mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { username: code, password: secret, clientId, protocolVersion: 5, reconnectPeriod: 0, connectTimeout: 5000 });
}

/** Why the broker refused a connection ('' when it took it: the connection is closed again). */
export async function refusal(port: number, code: string, secret: string, clientId = code): Promise<string> {
  try {
    const client = await connectDevice(port, code, secret, clientId);
    await client.endAsync(true);
    return '';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export interface AccountRow {
  wanted: string;
  pending: boolean;
  attempts: number;
  last_error: string | null;
  needs_reset: boolean;
  password_kept: boolean;
}

/** The device's account as the platform keeps it (null: no row). */
export async function accountOf(db: Queryable, code: string): Promise<AccountRow | null> {
  const [row] = await db.query<AccountRow>(
    `SELECT wanted, version > confirmed_version AS pending, attempts, last_error, needs_reset, password_sealed IS NOT NULL AS password_kept
       FROM broker_account WHERE device_code = $1`,
    [code],
  );
  return row ?? null;
}

/** Waits until the broker confirmed the device's account as it is now (a purged one's row is gone). */
export async function confirmed(db: Queryable, code: string): Promise<AccountRow | null> {
  return eventually(
    () => accountOf(db, code),
    (row) => row === null || !row.pending,
  );
}

/** Readings of the device stored so far. */
export async function storedReadings(db: Queryable, deviceId: number): Promise<number> {
  const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_telemetry WHERE device_id = $1', [deviceId]);
  return row.n;
}
