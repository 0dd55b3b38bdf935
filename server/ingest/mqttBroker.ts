import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { Aedes, type AuthenticateError, type Client, type PublishPacket } from 'aedes';
import type { ServerServices } from '../core/context';
import { parseCommandReply, ReplyRefused, settleCommand } from './commandReplies';
import { startCommandSender, type BrokerCommandSender } from './commandSender';
import { signInDevice } from './deviceCredentials';
import { storeAdmitted, type ReportingDevice } from './deviceReports';
import { DeviceSessions, listenForRevocations, SESSION_RECHECK_MS } from './deviceSessions';
import { ClientPace, DEVICE_PACE, GatedConnection, MQTT_PACKET_LIMIT } from './mqttLimits';
import { parseReport, ReportRefused } from './reportChecks';

/**
 * The embedded MQTT broker (Aedes) devices connect to (issue 22): a device signs in with its code as
 * the user name, its secret as the password and its code as the client id, publishes its readings to
 * `devices/<code>/telemetry` (the same JSON as the HTTP report) and its answers to commands to
 * `devices/<code>/commands/reply`, and may subscribe to `devices/<code>/commands` only: the commands
 * queued for it arrive there (commandSender.ts). A message is stored before it is acknowledged (QoS 1: a PUBACK
 * means stored); a refused one (bad JSON, out of range) is counted and dropped without closing the
 * connection, since MQTT 3.1.1 has no way to tell the device why. Nothing is forwarded between devices.
 *
 * What a session may do ends with the device's right to report (issue 30, deviceSessions.ts): a
 * reset, the recycle bin or a purge closes its sessions at once on every instance. The client id is
 * the device's code, so no device can take over another's session (MQTT closes the older of two
 * connections with one client id). A packet past the report limit closes the connection before it is
 * read, and a client's messages are handled at its pace (mqttLimits.ts DEVICE_PACE): a few in hand
 * at once, a sustained rate, so that no device's messages take the event loop from the others.
 */

export const TELEMETRY_TOPIC = /^devices\/([A-Za-z0-9]{12})\/telemetry$/;
export const commandTopic = (code: string) => `devices/${code}/commands`;
/** Where a device answers its commands (issue 31; commandReplies.ts). */
export const REPLY_TOPIC = /^devices\/([A-Za-z0-9]{12})\/commands\/reply$/;

export interface DeviceBroker {
  /** The port it listens on (MQTT_PORT; 0 picks a free one). */
  port: number;
  /** Whether it still takes connections (readiness). */
  listening(): boolean;
  /** The devices' open sessions on this broker (closed by revocations; commands find them). */
  sessions: DeviceSessions;
  /** Checks the open sessions against the database now (the broker does every SESSION_RECHECK_MS); answers how many it closed. */
  recheckSessions(): Promise<number>;
  /** The most messages the device's open session ever had in hand at once (0 without one). */
  peakInFlight(deviceId: number): number;
  /** The commands this broker sends to the devices subscribed here (commandSender.ts). */
  commands: BrokerCommandSender;
  close(): Promise<void>;
}

/** Aedes's return codes for a refused CONNECT (the d.ts declares them as a const enum we cannot import). */
const IDENTIFIER_REJECTED = 2;
const BAD_USERNAME_OR_PASSWORD = 4;

function refusedConnection(returnCode: number): AuthenticateError {
  return Object.assign(new Error('设备认证失败'), { returnCode }) as AuthenticateError;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Checks and stores one reading of a signed-in device; `done` acknowledges it (or, with an error, closes the connection). */
function storeReading(services: ServerServices, device: ReportingDevice, packet: PublishPacket, done: (error?: Error | null) => void): void {
  const count = (outcome: Parameters<ServerServices['events']['deviceReported']>[1]) => services.events.deviceReported('mqtt', outcome);
  const now = services.config.now();
  let reading;
  try {
    reading = parseReport(Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload), now);
  } catch (error) {
    if (!(error instanceof ReportRefused)) return done(error instanceof Error ? error : new Error(String(error)));
    count(error.outcome);
    // Acknowledged and dropped (nothing is forwarded): a device that sends a bad reading keeps its connection.
    return done(null);
  }
  storeAdmitted(services, device, reading, now).then(
    () => {
      count('accepted');
      done(null);
    },
    (error: unknown) => {
      services.log(`mqtt: a report of ${device.code} could not be stored: ${message(error)}`);
      // Not acknowledged: the device sends it again (QoS 1) once it reconnects.
      done(error instanceof Error ? error : new Error(String(error)));
    },
  );
}

/** Settles the command a device's reply names; `done` acknowledges it (a refused reply too: it changes nothing, counted). */
function settleReply(services: ServerServices, device: ReportingDevice, packet: PublishPacket, done: (error?: Error | null) => void): void {
  let answer;
  try {
    answer = parseCommandReply(Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload));
  } catch (error) {
    if (!(error instanceof ReplyRefused)) return done(error instanceof Error ? error : new Error(String(error)));
    services.events.commandReplied('mqtt', error.outcome);
    return done(null);
  }
  settleCommand(services.db, device.id, answer, services.config.now()).then(
    (settled) => {
      services.events.commandReplied('mqtt', settled.state);
      done(null);
    },
    (error: unknown) => {
      if (error instanceof ReplyRefused) {
        services.events.commandReplied('mqtt', error.outcome);
        return done(null);
      }
      services.log(`mqtt: a reply of ${device.code} could not be stored: ${message(error)}`);
      // Not acknowledged: the device sends it again (QoS 1) once it reconnects.
      done(error instanceof Error ? error : new Error(String(error)));
    },
  );
}

export async function startDeviceBroker(services: ServerServices, port: number, host: string): Promise<DeviceBroker> {
  const sessions = new DeviceSessions();
  const pace = new ClientPace<Client>(DEVICE_PACE);
  const count = (outcome: Parameters<ServerServices['events']['deviceReported']>[1]) => services.events.deviceReported('mqtt', outcome);

  const broker = await Aedes.createBroker({
    authenticate(client, username, password, done) {
      const code = username ?? '';
      const signIn = sessions.begin();
      const refuse = (outcome: Parameters<typeof count>[0] | null, returnCode: number) => {
        if (outcome !== null) count(outcome);
        done(refusedConnection(returnCode), false);
      };
      signInDevice(services.db, code, password?.toString('utf8') ?? '').then(
        (signedIn) => {
          // The client id is the device's code: another device can neither use nor take over its session.
          if (client.id !== code) {
            void sessions.end(signIn, client, null, services.db);
            return refuse('bad credentials', IDENTIFIER_REJECTED);
          }
          // Asked again when the device was announced while its secret was being checked.
          void sessions.end(signIn, client, signedIn, services.db).then((admitted) => {
            if (admitted) done(null, true);
            else refuse(client.closed ? null : 'bad credentials', BAD_USERNAME_OR_PASSWORD);
          });
        },
        (error: unknown) => {
          void sessions.end(signIn, client, null, services.db);
          if (!(error instanceof ReportRefused)) services.log(`mqtt: sign-in of a device failed: ${message(error)}`);
          refuse(error instanceof ReportRefused ? error.outcome : null, BAD_USERNAME_OR_PASSWORD);
        },
      );
    },
    authorizePublish(client, packet, done) {
      // The platform itself (client null) publishes commands; a device only its own readings.
      if (!client) return done(null);
      const device = sessions.deviceOf(client);
      // Its own readings, or its own replies: another device's topic (or any other) closes the connection.
      const replying = REPLY_TOPIC.exec(packet.topic)?.[1] === device?.code;
      if (!device || (!replying && TELEMETRY_TOPIC.exec(packet.topic)?.[1] !== device.code)) return done(new Error('not this device’s topic'));
      // A reading or a reply is stored, not kept for later subscribers.
      packet.retain = false;
      pace.run(client, (finish) => {
        const settle = (error?: Error | null) => {
          finish();
          done(error ?? null);
        };
        // Its session may have ended while it waited its turn (a revocation): then it is not stored.
        if (sessions.deviceOf(client) !== device) return settle(new Error('the session has ended'));
        if (replying) settleReply(services, device, packet, settle);
        else storeReading(services, device, packet, settle);
      });
    },
    authorizeSubscribe(client, subscription, done) {
      const device = sessions.deviceOf(client);
      if (device && subscription.topic === commandTopic(device.code)) return done(null, subscription);
      // Refused in the SUBACK (128), the connection kept.
      done(null, null);
    },
    // Readings go to the database, not to other clients.
    authorizeForward: (_client, packet) => (packet.topic.startsWith('devices/') && packet.topic.endsWith('/commands') ? packet : null),
  });

  const commands = await startCommandSender(services, broker, sessions, commandTopic);
  const stopListening = await listenForRevocations(services.db, (deviceIds) => {
    sessions.heardRevocation(deviceIds);
    // What the change left standing is asked of the database (committed before it was announced);
    // when that cannot be asked, the sessions close anyway: a device signs in again if it may.
    sessions.recheck(services.db, deviceIds).then(
      (closed) => {
        if (closed > 0) services.log(`mqtt: closed ${closed} session(s) of devices that may report no more, or moved`);
      },
      (error: unknown) => {
        const closed = sessions.revoke(deviceIds);
        services.log(`mqtt: the revoked devices' sessions could not be checked (${message(error)}); closed ${closed}`);
      },
    );
  });
  const recheckSessions = async () => {
    const closed = await sessions.recheck(services.db);
    if (closed > 0) services.log(`mqtt: closed ${closed} session(s) whose device may report no more (periodic check)`);
    return closed;
  };
  const recheck = setInterval(() => {
    recheckSessions().catch((error: unknown) => services.log(`mqtt: the sessions could not be checked: ${message(error)}`));
  }, SESSION_RECHECK_MS);
  recheck.unref();

  // Each connection through the packet size gate: a packet past the limit closes it before Aedes reads it.
  const server: Server = createServer((socket: Socket) => {
    broker.handle(new GatedConnection(socket, MQTT_PACKET_LIMIT, () => count('too large')));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    listening: () => server.listening && !broker.closed,
    sessions,
    recheckSessions,
    peakInFlight: (deviceId) => Math.max(0, ...sessions.sessionsOf(deviceId).map((client) => pace.peakOf(client))),
    commands,
    close: async () => {
      clearInterval(recheck);
      await commands.close();
      await stopListening().catch(() => undefined);
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
