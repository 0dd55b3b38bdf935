import { createServer, type AddressInfo, type Server } from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { ServerServices } from '../operations/define';
import { authenticateDevice, parseReport, ReportRefused, storeAdmitted, type ReportingDevice } from './deviceReports';

/**
 * The embedded MQTT broker (Aedes) devices connect to (issue 22): a device signs in with its code as
 * the user name and its secret as the password, publishes its readings to `devices/<code>/telemetry`
 * (the same JSON as the HTTP report) and may subscribe to `devices/<code>/commands` only. A message
 * is stored before it is acknowledged (QoS 1: a PUBACK means stored); a refused one (bad JSON, out
 * of range) is counted and dropped without closing the connection, since MQTT 3.1.1 has no way to
 * tell the device why. Nothing is forwarded between devices.
 */

export const TELEMETRY_TOPIC = /^devices\/([A-Za-z0-9]{12})\/telemetry$/;
export const commandTopic = (code: string) => `devices/${code}/commands`;

export interface DeviceBroker {
  /** The port it listens on (MQTT_PORT; 0 picks a free one). */
  port: number;
  /** Whether it still takes connections (readiness). */
  listening(): boolean;
  close(): Promise<void>;
}

/** Aedes's return code for a refused CONNECT (the d.ts declares it as a const enum we cannot import). */
const BAD_USERNAME_OR_PASSWORD = 4;

function refusedConnection(): AuthenticateError {
  return Object.assign(new Error('设备认证失败'), { returnCode: BAD_USERNAME_OR_PASSWORD }) as AuthenticateError;
}

export async function startDeviceBroker(services: ServerServices, port: number, host: string): Promise<DeviceBroker> {
  const devices = new WeakMap<Client, ReportingDevice>();
  const count = (outcome: Parameters<ServerServices['events']['deviceReported']>[1]) => services.events.deviceReported('mqtt', outcome);
  const broker = await Aedes.createBroker({
    authenticate(client, username, password, done) {
      authenticateDevice(services.db, username ?? '', password?.toString('utf8') ?? '').then(
        (device) => {
          devices.set(client, device);
          done(null, true);
        },
        (error: unknown) => {
          if (error instanceof ReportRefused) count(error.outcome);
          else services.log(`mqtt: sign-in of a device failed: ${error instanceof Error ? error.message : String(error)}`);
          done(refusedConnection(), false);
        },
      );
    },
    authorizePublish(client, packet, done) {
      const device = client ? devices.get(client) : undefined;
      // The platform itself (client null) publishes commands; a device only its own readings.
      if (!client) return done(null);
      if (!device || TELEMETRY_TOPIC.exec(packet.topic)?.[1] !== device.code) return done(new Error('not this device’s topic'));
      const now = services.config.now();
      let report;
      try {
        report = parseReport(Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload), now);
      } catch (error) {
        if (!(error instanceof ReportRefused)) return done(error instanceof Error ? error : new Error(String(error)));
        count(error.outcome);
        // Acknowledged and dropped (nothing is forwarded): a device that sends a bad reading keeps its connection.
        return done(null);
      }
      storeAdmitted(services, device, report, now).then(
        () => {
          count('accepted');
          done(null);
        },
        (error: unknown) => {
          services.log(`mqtt: a report of ${device.code} could not be stored: ${error instanceof Error ? error.message : String(error)}`);
          // Not acknowledged: the device sends it again (QoS 1) once it reconnects.
          done(error instanceof Error ? error : new Error(String(error)));
        },
      );
    },
    authorizeSubscribe(client, subscription, done) {
      const device = devices.get(client);
      if (device && subscription.topic === commandTopic(device.code)) return done(null, subscription);
      // Refused in the SUBACK (128), the connection kept.
      done(null, null);
    },
    // Readings go to the database, not to other clients.
    authorizeForward: (_client, packet) => (packet.topic.startsWith('devices/') && packet.topic.endsWith('/commands') ? packet : null),
  });
  const server: Server = createServer(broker.handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    listening: () => server.listening && !broker.closed,
    close: async () => {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
