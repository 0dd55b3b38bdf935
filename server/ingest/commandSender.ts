import { randomUUID } from 'node:crypto';
import type { Aedes, Client } from 'aedes';
import type { ServerServices } from '../core/context';
import { claimNextCommand, commandMessage, listenForCommands, markCommandSent, releaseCommand, SEND_LEASE_MS, type ClaimedCommand } from './commandDelivery';
import type { DeviceSessions } from './deviceSessions';

/**
 * The embedded broker's side of commands (issue 31): this instance sends the commands of the devices
 * whose sessions it holds, once the device subscribed to `devices/<code>/commands`. A command goes
 * when it is queued (its announcement, heard by every instance: only the one holding the session
 * acts), when the device subscribes (its waiting commands, in id order), and when the periodic check
 * finds one waiting (an announcement lost with the LISTEN connection, a lease run out). Each send is
 * claimed first (claimNextCommand: of two instances holding a session of the device, one sends),
 * goes to the device's own session at the QoS it subscribed with, and is `sent` once the device's
 * PUBACK arrived (QoS 0: once written). One command at a time per device: the next after the PUBACK.
 */

/** How often the devices subscribed here are checked for waiting commands besides the announcements. */
export const COMMAND_RECHECK_MS = 5_000;
/** How long a PUBACK is waited for before the send is given up (its lease then lets another try take it). */
const PUBACK_WAIT_MS = SEND_LEASE_MS - 5_000;

interface Subscriber {
  client: Client;
  code: string;
  qos: 0 | 1;
}

/** Whatever the client library keeps of a client's subscriptions (not in Aedes's declarations). */
type WithSubscriptions = Client & { subscriptions?: Record<string, { qos?: number } | undefined> };

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export interface BrokerCommandSender {
  /** Sends the device's waiting commands now, if it is subscribed here. */
  kick(deviceId: number): void;
  /** Settles when no send is under way (tests). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** The PUBACK each client's command in flight waits for. */
type Acks = Map<Client, (acknowledged: boolean) => void>;

/** Publishes one claimed command to the device's session; answers whether it is out (PUBACK, or written at QoS 0). */
function publishCommand(subscriber: Subscriber, topic: string, command: ClaimedCommand, acks: Acks): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const { client, qos } = subscriber;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (out: boolean) => {
      clearTimeout(timer);
      if (acks.get(client) === finish) acks.delete(client);
      resolve(out);
    };
    if (qos === 1) {
      acks.set(client, finish);
      timer = setTimeout(() => finish(false), PUBACK_WAIT_MS);
    }
    const packet = { cmd: 'publish' as const, topic, payload: Buffer.from(JSON.stringify(commandMessage(command))), qos, retain: false, dup: false };
    client.publish(packet, (error) => {
      if (error) finish(false);
      else if (qos === 0) finish(true);
    });
  });
}

/** Kicks those of `deviceIds` that have a command waiting no sender holds (the periodic check). */
function kickWaiting(services: ServerServices, deviceIds: number[], kick: (deviceId: number) => void): void {
  const now = services.config.now();
  services.db
    .query<{ device_id: number }>(
      `SELECT DISTINCT device_id FROM device_command
        WHERE state = 'pending' AND device_id = ANY($1::int[]) AND expires_at > $2 AND (claimed_until IS NULL OR claimed_until <= $2)`,
      [deviceIds, now],
    )
    .then(
      (rows) => rows.forEach((row) => kick(row.device_id)),
      (error: unknown) => services.log(`mqtt: the waiting commands could not be checked: ${message(error)}`),
    );
}

export async function startCommandSender(services: ServerServices, broker: Aedes, sessions: DeviceSessions, commandTopic: (code: string) => string): Promise<BrokerCommandSender> {
  const sender = `broker:${randomUUID()}`;
  const subscribers = new Map<number, Subscriber>();
  const running = new Map<number, Promise<void>>();
  const again = new Set<number>();
  const acks: Acks = new Map();
  let closed = false;

  const subscribed = (client: Client, qos: number) => {
    const device = sessions.deviceOf(client);
    if (!device) return;
    subscribers.set(device.id, { client, code: device.code, qos: qos >= 1 ? 1 : 0 });
    kick(device.id);
  };
  const forget = (client: Client) => {
    acks.get(client)?.(false);
    for (const [id, subscriber] of subscribers) if (subscriber.client === client) subscribers.delete(id);
  };
  broker.on('subscribe', (subscriptions, client) => {
    const device = sessions.deviceOf(client);
    const mine = device && subscriptions.find((subscription) => subscription.topic === commandTopic(device.code) && (subscription.qos as number) !== 128);
    if (mine) subscribed(client, mine.qos);
  });
  // A persistent session's subscription comes back without a SUBSCRIBE.
  broker.on('clientReady', (client) => {
    const device = sessions.deviceOf(client);
    const kept = device && (client as WithSubscriptions).subscriptions?.[commandTopic(device.code)];
    if (kept) subscribed(client, kept.qos ?? 0);
  });
  broker.on('unsubscribe', (topics, client) => {
    const device = sessions.deviceOf(client);
    if (device && topics.includes(commandTopic(device.code)) && subscribers.get(device.id)?.client === client) subscribers.delete(device.id);
  });
  broker.on('clientDisconnect', forget);
  broker.on('ack', (packet, client) => {
    // Only commands go to devices; a clean session's PUBACK comes without the packet it answers.
    if (packet && 'topic' in packet && !packet.topic.endsWith('/commands')) return;
    const settle = acks.get(client);
    acks.delete(client);
    settle?.(true);
  });

  const publish = (subscriber: Subscriber, command: ClaimedCommand) => publishCommand(subscriber, commandTopic(command.code), command, acks);

  /** Sends the device's waiting commands one after another while it stays subscribed here. */
  const drain = async (deviceId: number) => {
    for (;;) {
      const subscriber = subscribers.get(deviceId);
      if (closed || !subscriber || subscriber.client.closed || sessions.deviceOf(subscriber.client)?.id !== deviceId) return;
      const command = await claimNextCommand(services.db, deviceId, sender, services.config.now());
      if (!command) return;
      if (!(await publish(subscriber, command))) {
        // Not out: the next connection (or another instance) tries again.
        if (subscriber.client.closed) await releaseCommand(services.db, command.id, sender);
        return;
      }
      await markCommandSent(services.db, command.id, sender, services.config.now());
    }
  };
  const kick = (deviceId: number) => {
    if (closed || !subscribers.has(deviceId)) return;
    if (running.has(deviceId)) {
      again.add(deviceId);
      return;
    }
    const run = (async () => {
      do {
        again.delete(deviceId);
        await drain(deviceId).catch((error: unknown) => services.log(`mqtt: a command for device ${deviceId} could not be sent: ${message(error)}`));
      } while (again.has(deviceId) && !closed);
    })().finally(() => running.delete(deviceId));
    running.set(deviceId, run);
  };

  const stopListening = await listenForCommands(services.db, ({ deviceId }) => kick(deviceId));
  const recheck = setInterval(() => {
    if (subscribers.size > 0) kickWaiting(services, [...subscribers.keys()], kick);
  }, COMMAND_RECHECK_MS);
  recheck.unref();

  const idle = async () => {
    while (running.size > 0) await Promise.all([...running.values()]);
  };
  return {
    kick,
    idle,
    close: async () => {
      closed = true;
      clearInterval(recheck);
      for (const settle of acks.values()) settle(false);
      await stopListening().catch(() => undefined);
      await idle();
    },
  };
}
