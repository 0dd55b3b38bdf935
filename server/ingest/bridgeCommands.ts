import { randomUUID } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import type { ServerServices } from '../core/context';
import { claimNextCommand, commandMessage, listenForCommands, markCommandSent, releaseCommand } from './commandDelivery';

/**
 * Commands through an external broker (MQTT_URL, issue 31): the platform publishes them through its
 * own client, QoS 1, on `devices/<code>/commands`. The platform cannot see the device's session
 * there, so a command goes out when the platform has reason to think the device is connected: when it
 * is queued for a device that is online and awake, when the device subscribes to its command topic
 * (the broker's ACL question), and when the device reports. Every instance connected to the broker
 * hears a queued command's announcement; the claim (claimNextCommand) lets one of them publish. The
 * command is `sent` once the broker's PUBACK arrived: the broker holds it for the device from then on
 * (the device's own PUBACK is between them). A device that is online by the platform's reckoning but
 * not connected misses a command published meanwhile unless it keeps a persistent session there
 * (clean session off, subscribed at QoS 1): the broker then hands it over when the device is back.
 */

/** After the broker asked whether a device may subscribe, the subscription is in place this soon. */
export const SUBSCRIBE_SETTLE_MS = 500;

export interface BridgeCommandSender {
  /** Publishes the device's waiting commands now (it reported or subscribed); `afterMs` waits first. */
  kick(deviceId: number, afterMs?: number): void;
  /** Settles when no send is under way (tests). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const senders = new WeakMap<ServerServices, BridgeCommandSender>();
/** The sender of the bridge these services run, if any (the broker's ACL questions kick it). */
export const bridgeSenderOf = (services: ServerServices): BridgeCommandSender | undefined => senders.get(services);

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function startBridgeCommands(services: ServerServices, client: MqttClient, commandTopic: (code: string) => string): Promise<BridgeCommandSender> {
  const sender = `bridge:${randomUUID()}`;
  const running = new Map<number, Promise<void>>();
  const again = new Set<number>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let closed = false;

  const drain = async (deviceId: number) => {
    while (!closed && client.connected) {
      const command = await claimNextCommand(services.db, deviceId, sender, services.config.now());
      if (!command) return;
      try {
        await client.publishAsync(commandTopic(command.code), JSON.stringify(commandMessage(command)), { qos: 1, retain: false });
      } catch (error) {
        await releaseCommand(services.db, command.id, sender);
        throw error;
      }
      await markCommandSent(services.db, command.id, sender, services.config.now());
    }
  };
  const run = (deviceId: number) => {
    if (closed) return;
    if (running.has(deviceId)) {
      again.add(deviceId);
      return;
    }
    const going = (async () => {
      do {
        again.delete(deviceId);
        await drain(deviceId).catch((error: unknown) => services.log(`mqtt bridge: a command for device ${deviceId} could not be sent: ${message(error)}`));
      } while (again.has(deviceId) && !closed);
    })().finally(() => running.delete(deviceId));
    running.set(deviceId, going);
  };
  const kick = (deviceId: number, afterMs = 0) => {
    if (afterMs <= 0) return run(deviceId);
    const timer = setTimeout(() => {
      timers.delete(timer);
      run(deviceId);
    }, afterMs);
    timers.add(timer);
  };

  // A queued command goes at once to a device that is online and awake; the others' wait for them to subscribe or report.
  const stopListening = await listenForCommands(services.db, ({ deviceId }) => {
    services.db.query<{ ready: boolean }>("SELECT online_state = 'online' AND NOT sleeping AS ready FROM device WHERE id = $1", [deviceId]).then(
      ([device]) => {
        if (device?.ready) run(deviceId);
      },
      (error: unknown) => services.log(`mqtt bridge: device ${deviceId} could not be read: ${message(error)}`),
    );
  });
  const idle = async () => {
    while (running.size > 0) await Promise.all([...running.values()]);
  };
  const commands: BridgeCommandSender = {
    kick,
    idle,
    close: async () => {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      senders.delete(services);
      await stopListening().catch(() => undefined);
      await idle();
    },
  };
  senders.set(services, commands);
  return commands;
}
