import { randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database';
import { API_PREFIX } from '../http/routes';
import type { ServerServices } from '../core/context';
import { bridgeSenderOf, startBridgeCommands, SUBSCRIBE_SETTLE_MS, type BridgeCommandSender } from './bridgeCommands';
import { startBridgeSessions, type BridgeSessions } from './bridgeSessions';
import { dynsecControl } from './dynsecControl';
import { startBrokerAccountSync, type BrokerAccountSync } from './mosquittoAccountSync';
import { parseCommandReply, ReplyRefused, settleCommand } from './commandReplies';
import { DEVICE_CODE, findReportingDevice, noteBrokerSignIn, signInDevice } from './deviceCredentials';
import { storeAdmitted, type ReportingDevice } from './deviceReports';
import { REPLY_TOPIC, TELEMETRY_TOPIC, commandTopic } from './mqttBroker';
import { parseReport, ReportRefused } from './reportChecks';

/**
 * An external MQTT broker (Mosquitto, EMQX…) in place of the embedded one (issue 22), for a
 * platform past one machine: MQTT_URL names it with the platform's own credentials, and the server
 * subscribes to the devices' readings there (MQTT_TOPIC, by default the shared subscription
 * `$share/iot-platform/devices/+/telemetry`, so that several instances split the messages instead of
 * each storing every one). The broker authenticates the devices by asking the platform:
 * `POST /api/device/mqtt/_auth` with `{username, password}` (device code and secret) and
 * `POST /api/device/mqtt/_acl` with `{username, topic, action}` answer `{"result":"allow"}` or
 * `{"result":"deny"}`, the form EMQX's HTTP authentication and authorization expect (Mosquitto
 * through its go-auth HTTP backend). A message is stored as the embedded broker stores it; one the
 * platform refuses is counted and dropped.
 *
 * The rules of the embedded broker hold here as far as the platform can see (issue 30): a sign-in
 * whose `clientid` (when the broker sends it, as it should) is not the device's code is denied; a
 * device in the recycle bin or gone is denied and its readings refused; after a reset, the device's
 * readings and ACL questions are refused until it signs in with the new secret (the old secret's
 * session may still be open on the broker, and the platform cannot close it there; the device's new
 * sign-in, with the same client id, takes that session over).
 *
 * Commands (issue 31) go the other way through the platform's own connection (bridgeCommands.ts):
 * published on `devices/<code>/commands`, QoS 1; the devices' replies come back on
 * `devices/<code>/commands/reply` (the ACL admits a device's own), taken in MQTT_TOPIC's share group
 * when it has one.
 *
 * With MQTT_DYNSEC (issue 36) the broker is a Mosquitto that authenticates the devices itself, with
 * its dynamic-security plugin, and the platform keeps the accounts there (mosquittoAccountSync.ts):
 * `_auth` and `_acl` are not asked. A device's readings through the broker are its own once the
 * broker confirmed its current password (the old one's sessions are ended by the change), as a
 * sign-in through `_auth` marks them otherwise.
 */

export const MQTT_AUTH_PATH = `${API_PREFIX}/device/mqtt/_auth`;
export const MQTT_ACL_PATH = `${API_PREFIX}/device/mqtt/_acl`;

/**
 * Where the devices' replies are taken (issue 31): the readings' subscription's share group if it
 * has one (`$share/iot-platform/devices/+/commands/reply`: instances split them too), else all of them.
 */
export function replyTopicOf(telemetryTopic: string): string {
  const shared = /^\$share\/([^/]+)\//.exec(telemetryTopic);
  return `${shared ? `$share/${shared[1]}/` : ''}devices/+/commands/reply`;
}

export interface BrokerBridge {
  /** Whether the platform's subscription is up (readiness). */
  connected(): boolean;
  close(): Promise<void>;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The device of this code if it is live and signed in to the broker with its current secret. */
async function brokerSession(services: ServerServices, code: string): Promise<ReportingDevice | null> {
  if (!DEVICE_CODE.test(code)) return null;
  try {
    return await findReportingDevice(services.db, code);
  } catch (error) {
    if (error instanceof ReportRefused) return null;
    throw error;
  }
}

/** The broker's questions: may this device sign in, and may it publish or subscribe to this topic. */
export function registerBrokerAuth(app: FastifyInstance, services: ServerServices): void {
  app.post(MQTT_AUTH_PATH, async (request) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const code = text(body.username);
    // A device's client id is its code: denied when the broker says it is another.
    if (body.clientid !== undefined && text(body.clientid) !== code) {
      services.events.deviceReported('mqtt', 'bad credentials');
      return { result: 'deny' };
    }
    try {
      const signedIn = await signInDevice(services.db, code, text(body.password));
      await noteBrokerSignIn(services.db, signedIn, services.config.now());
      return { result: 'allow' };
    } catch (error) {
      if (!(error instanceof ReportRefused)) throw error;
      services.events.deviceReported('mqtt', error.outcome);
      return { result: 'deny' };
    }
  });
  app.post(MQTT_ACL_PATH, async (request) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const code = text(body.username);
    const topic = text(body.topic);
    const action = text(body.action);
    const publishing = action === 'publish' && (TELEMETRY_TOPIC.exec(topic)?.[1] === code || REPLY_TOPIC.exec(topic)?.[1] === code);
    const subscribing = action === 'subscribe' && topic === commandTopic(code);
    const device = (publishing || subscribing) && (await brokerSession(services, code));
    // A device subscribing to its commands is connected: its waiting commands follow once the subscription is in place.
    if (device && subscribing) bridgeSenderOf(services)?.kick(device.id, SUBSCRIBE_SETTLE_MS);
    return { result: device ? 'allow' : 'deny' };
  });
}

/** The broker refused the protocol version (Aedes and other 3.1.1 brokers answer MQTT 5 so). */
function unacceptableProtocol(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 1;
}

/**
 * The platform's own connection (a clean session: nothing is subscribed in it but the
 * dynamic-security plugin's answers): commands go out through it, and, with MQTT_DYNSEC, the device
 * accounts' changes. MQTT 5 where the broker speaks it (a shared subscription's sessions then carry
 * an expiry, and ending one is a DISCONNECT away), else 3.1.1.
 */
async function connectControl(url: string, log: (line: string) => void): Promise<{ client: MqttClient; protocolVersion: 4 | 5 }> {
  const options = (protocolVersion: 4 | 5) => ({
    clientId: `iot-platform-control-${randomBytes(6).toString('hex')}`,
    clean: true,
    protocolVersion,
    reconnectPeriod: 2000,
    connectTimeout: 10_000,
  });
  try {
    return { client: await mqtt.connectAsync(url, options(5)), protocolVersion: 5 };
  } catch (error) {
    if (!unacceptableProtocol(error)) throw error;
    log('mqtt bridge: the broker does not speak MQTT 5; using 3.1.1');
    return { client: await mqtt.connectAsync(url, options(4)), protocolVersion: 4 };
  }
}

/** MQTT_URL's own user: never taken for a device's account. */
function platformUserOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).username);
  } catch {
    return '';
  }
}

/**
 * Connects to MQTT_URL and stores what the devices publish there. A reading is acknowledged to the
 * broker once stored, in a persistent session (QoS 1): one the server could not store is not, and
 * the broker sends it again after a reconnection. The sessions are leased (bridgeSessions.ts): one
 * of an instance that was killed is taken over by another and drained. Messages are taken one at a
 * time per session (the client library hands over the next once the last is handled); instances
 * share the load through MQTT_TOPIC's shared subscription. With MQTT_DYNSEC the broker's device
 * accounts are kept too (mosquittoAccountSync.ts).
 */
export async function bridgeBroker(services: ServerServices, url: string, topic: string): Promise<BrokerBridge> {
  let commands: BridgeCommandSender | null = null;
  /** A device's reply to a command: settled, or counted when it changes nothing (acknowledged to the broker either way). */
  const settle = async (code: string, payload: Buffer): Promise<void> => {
    try {
      const device = await findReportingDevice(services.db, code);
      const settled = await settleCommand(services.db, device.id, parseCommandReply(payload), services.config.now());
      services.events.commandReplied('mqtt', settled.state);
    } catch (error) {
      if (error instanceof ReplyRefused) services.events.commandReplied('mqtt', error.outcome);
      else if (error instanceof ReportRefused) services.events.deviceReported('mqtt', error.outcome);
      else throw error;
    }
  };
  const store = async (receivedTopic: string, payload: Buffer): Promise<void> => {
    const replying = REPLY_TOPIC.exec(receivedTopic)?.[1];
    if (replying) return settle(replying, payload);
    const code = TELEMETRY_TOPIC.exec(receivedTopic)?.[1];
    if (!code) return;
    const now = services.config.now();
    try {
      const device = await findReportingDevice(services.db, code);
      const report = parseReport(payload, now);
      // One message at a time (the library hands over the next once this one is handled): no batch to wait for.
      await storeAdmitted(services, device, report, now, { wait: false });
      services.events.deviceReported('mqtt', 'accepted');
      // A device that reports is connected: what waits for it goes now.
      commands?.kick(device.id);
    } catch (error) {
      // Refused: acknowledged and dropped, as the embedded broker does. Anything else is not acknowledged.
      if (!(error instanceof ReportRefused)) throw error;
      services.events.deviceReported('mqtt', error.outcome);
    }
  };
  const { client: control, protocolVersion } = await connectControl(url, services.log);
  control.on('error', (error) => services.log(`mqtt bridge: ${error.message}`));
  commands = await startBridgeCommands(services, control, commandTopic);
  const sessions = await startBridgeSessions(services.db, services.config.now, { url, protocolVersion, topics: [topic, replyTopicOf(topic)], handle: store, log: services.log });
  const accounts = services.config.mqttDynsec ? await startBrokerAccountSync(services, await dynsecControl(control), () => control.connected, platformUserOf(url)) : null;
  // Back after a disconnection: what changed meanwhile goes now.
  control.on('connect', () => accounts?.wake());
  bridges.set(services.db, { sessions, accounts });
  return {
    connected: () => control.connected && sessions.connected(),
    close: async () => {
      bridges.delete(services.db);
      await accounts?.close();
      await sessions.close();
      await commands?.close();
      await control.endAsync();
    },
  };
}

const bridges = new WeakMap<Database, { sessions: BridgeSessions; accounts: BrokerAccountSync | null }>();
/** The sessions and the accounts' worker of the bridge running on this database (tests: take over lapsed sessions, resync now). */
export const bridgeOf = (db: Database) => bridges.get(db);
