import { randomBytes, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import type { Database } from '../db/database';

/**
 * The persistent sessions an instance takes the devices' readings and replies in, on an external
 * broker (issue 36). Found on Mosquitto 2.0.11: a member of a shared subscription that goes away
 * with its session kept (as it must, to lose nothing it had not acknowledged) keeps being handed its
 * share of the messages while it is away, and what it never acknowledged is not passed to the other
 * members; a new process subscribing under another client id leaves the old session behind for good,
 * eating its share. So each instance subscribes under a client id of its own (`iot-platform-<hex>`),
 * held in mqtt_bridge_session (migration 131) with a lease it renews every few seconds. An instance
 * that finds a session whose lease lapsed (its instance killed, its machine gone) claims it (one
 * conditional UPDATE: one instance wins), resumes it under that client id, unsubscribes it at once
 * (the broker routes nothing new to it), stores everything it held, acknowledging each once stored,
 * and ends it (MQTT 5: session expiry 0; 3.1.1: a clean connection under that id). Nothing the broker
 * acknowledged to a device is lost, and no session is left behind.
 *
 * A graceful stop does the same to its own session (unsubscribe, store what is in flight, end it);
 * one that cannot finish in time leaves the session to be taken over. A connection this instance
 * lost is resumed only while its lease still holds; a session another instance took over (the lease
 * lapsed while this one was stalled) is given up and a new one started.
 */

/** How long a session's lease holds without renewal. */
export const SESSION_LEASE_MS = 15_000;
const RENEW_MS = 5_000;
/** What the broker keeps a session for while nobody holds it (all instances down). */
const SESSION_EXPIRY_SECONDS = 7 * 24 * 3600;
/** A session taken over is ended once nothing arrived for this long (after its unsubscription). */
const DRAIN_QUIET_MS = 2_000;
/** At a graceful stop: quiet for this long ends the own session, and the stop waits this long at most. */
const CLOSE_QUIET_MS = 500;
const CLOSE_LIMIT_MS = 10_000;
const RECONNECT_MS = 2_000;

export type MessageHandler = (topic: string, payload: Buffer) => Promise<void>;

export interface BridgeSessionOptions {
  url: string;
  protocolVersion: 4 | 5;
  /** The subscriptions of every session (the readings' and the replies' share groups). */
  topics: string[];
  /** Stores a message; a rejection leaves it unacknowledged (the broker sends it again after a reconnection). */
  handle: MessageHandler;
  log: (line: string) => void;
}

export interface BridgeSessions {
  /** Whether the own session is connected (readiness). */
  connected(): boolean;
  /** Takes over the sessions whose lease lapsed, now (also every few seconds); settles when they are drained. */
  adopt(): Promise<void>;
  close(): Promise<void>;
}

interface Member {
  clientId: string;
  client: MqttClient;
  /** A session taken over from another instance, drained and ended. */
  adopted: boolean;
  /** Given up: another instance holds it, or it is ended. */
  done: boolean;
  inFlight: number;
  lastActivity: number;
  reconnecting: boolean;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function startBridgeSessions(db: Database, now: () => Date, options: BridgeSessionOptions): Promise<BridgeSessions> {
  const holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const members = new Map<string, Member>();
  const drains = new Set<Promise<void>>();
  let own: Member | null = null;
  let closing = false;
  const v5 = options.protocolVersion === 5;

  const leaseUntil = () => new Date(now().getTime() + SESSION_LEASE_MS);
  /** Renews the leases of these sessions; answers those still this instance's. */
  const renew = async (ids: string[]): Promise<Set<string>> => {
    if (ids.length === 0) return new Set();
    const rows = await db.query<{ client_id: string }>('UPDATE mqtt_bridge_session SET lease_until = $3 WHERE holder = $1 AND client_id = ANY($2::text[]) RETURNING client_id', [holder, ids, leaseUntil()]);
    return new Set(rows.map((row) => row.client_id));
  };

  const connectionOptions = (clientId: string, clean: boolean): IClientOptions => ({
    clientId,
    clean,
    protocolVersion: options.protocolVersion,
    ...(v5 ? { properties: { sessionExpiryInterval: clean ? 0 : SESSION_EXPIRY_SECONDS } } : {}),
    reconnectPeriod: 0,
    connectTimeout: 10_000,
  });

  const giveUp = (member: Member, why: string) => {
    if (member.done) return;
    member.done = true;
    members.delete(member.clientId);
    member.client.end(true);
    options.log(`mqtt bridge: session ${member.clientId} given up: ${why}`);
    if (member === own && !closing) void startOwn().catch((error: unknown) => options.log(`mqtt bridge: a new session could not be started: ${message(error)}`));
  };

  /** A lost connection is resumed while the lease holds (checked first: another instance may have taken the session over). */
  const resume = (member: Member) => {
    if (member.done || closing || member.reconnecting) return;
    member.reconnecting = true;
    setTimeout(() => {
      renew([member.clientId]).then(
        (held) => {
          member.reconnecting = false;
          if (member.done || closing) return;
          if (!held.has(member.clientId)) giveUp(member, 'another instance holds it now');
          else member.client.reconnect();
        },
        (error: unknown) => {
          member.reconnecting = false;
          options.log(`mqtt bridge: the lease of ${member.clientId} could not be checked: ${message(error)}`);
          resume(member);
        },
      );
    }, RECONNECT_MS).unref();
  };

  /** Connects a session under `clientId`; answers it with whether the broker had it. */
  const connectMember = async (clientId: string, adopted: boolean): Promise<{ member: Member; sessionPresent: boolean }> => {
    const client = mqtt.connect(options.url, connectionOptions(clientId, false));
    const member: Member = { clientId, client, adopted, done: false, inFlight: 0, lastActivity: Date.now(), reconnecting: false };
    // The library sends the PUBACK once this calls back: stored first. Set before the connection
    // opens, so what a resumed session held is handled too.
    client.handleMessage = (packet, callback) => {
      member.inFlight += 1;
      member.lastActivity = Date.now();
      const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
      options.handle(packet.topic, payload).then(
        () => callback(),
        (error: unknown) => {
          options.log(`mqtt bridge: a message on ${packet.topic} could not be stored: ${message(error)}`);
          callback(error instanceof Error ? error : new Error(String(error)));
        },
      ).finally(() => {
        member.inFlight -= 1;
        member.lastActivity = Date.now();
      });
    };
    const connack = await new Promise<{ sessionPresent: boolean }>((resolve, reject) => {
      const failed = (error: Error) => {
        client.end(true);
        reject(error);
      };
      client.once('error', failed);
      client.once('connect', (packet) => {
        client.removeListener('error', failed);
        resolve({ sessionPresent: packet.sessionPresent });
      });
    });
    let reported = false;
    client.on('error', (error) => {
      if (!reported) options.log(`mqtt bridge: session ${clientId}: ${error.message}`);
      reported = true;
    });
    client.on('connect', (packet) => {
      reported = false;
      // Resumed on a broker that no longer had the session (it restarted without keeping them): an own session subscribes again.
      if (!packet.sessionPresent && !member.adopted && !member.done) {
        client.subscribeAsync(options.topics, { qos: 1 }).catch((error: unknown) => options.log(`mqtt bridge: session ${clientId} could not subscribe again: ${message(error)}`));
      }
    });
    client.on('close', () => resume(member));
    members.set(clientId, member);
    return { member, sessionPresent: connack.sessionPresent };
  };

  /** Ends a session for good: the broker forgets it, and so does the table. */
  const retire = async (member: Member) => {
    member.done = true;
    members.delete(member.clientId);
    if (v5) await member.client.endAsync(false, { reasonCode: 0, properties: { sessionExpiryInterval: 0 } });
    else {
      await member.client.endAsync();
      const clean = await mqtt.connectAsync(options.url, { ...connectionOptions(member.clientId, true), clean: true });
      await clean.endAsync();
    }
    await db.query('DELETE FROM mqtt_bridge_session WHERE client_id = $1 AND holder = $2', [member.clientId, holder]);
  };

  /** Waits until nothing is being stored and nothing arrived for `quietMs` (or `limitMs` passed: answers false). */
  const quiet = async (member: Member, quietMs: number, limitMs = Infinity): Promise<boolean> => {
    const until = Date.now() + limitMs;
    while (member.inFlight > 0 || Date.now() - member.lastActivity < quietMs) {
      if (Date.now() > until || member.done) return false;
      await pause(100);
    }
    return true;
  };

  const startOwn = async () => {
    const clientId = `iot-platform-${randomBytes(6).toString('hex')}`;
    await db.query('INSERT INTO mqtt_bridge_session (client_id, holder, lease_until, created_at) VALUES ($1, $2, $3, $4)', [clientId, holder, leaseUntil(), now()]);
    const { member } = await connectMember(clientId, false);
    await member.client.subscribeAsync(options.topics, { qos: 1 });
    own = member;
  };

  /** A session another instance held: resumed, unsubscribed, drained, ended. */
  const drain = async (clientId: string) => {
    let connected: { member: Member; sessionPresent: boolean };
    try {
      connected = await connectMember(clientId, true);
    } catch (error) {
      // Let the lease lapse at once: the next look tries again.
      await db.query('UPDATE mqtt_bridge_session SET lease_until = $3 WHERE client_id = $1 AND holder = $2', [clientId, holder, now()]);
      throw error;
    }
    const { member, sessionPresent } = connected;
    options.log(`mqtt bridge: took over session ${clientId}${sessionPresent ? '' : ' (the broker no longer had it)'}`);
    if (sessionPresent) {
      await member.client.unsubscribeAsync(options.topics).catch(() => undefined);
      await quiet(member, DRAIN_QUIET_MS);
    }
    if (!member.done) await retire(member);
  };

  const adopt = async () => {
    for (;;) {
      if (closing) return;
      const at = now();
      const [row] = await db.query<{ client_id: string }>(
        `UPDATE mqtt_bridge_session SET holder = $1, lease_until = $3
          WHERE client_id = (SELECT client_id FROM mqtt_bridge_session WHERE lease_until < $2 ORDER BY lease_until LIMIT 1 FOR UPDATE SKIP LOCKED)
          RETURNING client_id`,
        [holder, at, leaseUntil()],
      );
      if (!row) break;
      const going = drain(row.client_id).catch((error: unknown) => options.log(`mqtt bridge: session ${row.client_id} could not be taken over: ${message(error)}`));
      drains.add(going);
      void going.finally(() => drains.delete(going));
    }
    await Promise.all([...drains]);
  };

  await startOwn();
  let looking: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (closing) return;
    void renew([...members.keys()]).then(
      (held) => {
        for (const member of [...members.values()]) if (!held.has(member.clientId)) giveUp(member, 'its lease lapsed and another instance holds it');
      },
      (error: unknown) => options.log(`mqtt bridge: the sessions' leases could not be renewed: ${message(error)}`),
    );
    if (!looking) {
      looking = adopt()
        .catch((error: unknown) => options.log(`mqtt bridge: sessions to take over could not be looked for: ${message(error)}`))
        .finally(() => {
          looking = null;
        });
    }
  }, RENEW_MS);
  timer.unref();

  return {
    connected: () => own?.client.connected ?? false,
    adopt,
    close: async () => {
      closing = true;
      clearInterval(timer);
      await Promise.race([Promise.all([...drains]), pause(CLOSE_LIMIT_MS)]);
      await Promise.all(
        [...members.values()].map(async (member) => {
          if (!member.client.connected) {
            member.done = true;
            member.client.end(true);
            return;
          }
          // The broker routes nothing new to it; what it holds is stored, then the session ends. Too slow: left to be taken over.
          const unsubscribed = await Promise.race([member.client.unsubscribeAsync(options.topics).then(() => true, () => false), pause(CLOSE_LIMIT_MS).then(() => false)]);
          if (unsubscribed && (await quiet(member, CLOSE_QUIET_MS, CLOSE_LIMIT_MS))) await retire(member).catch((error: unknown) => options.log(`mqtt bridge: session ${member.clientId} could not be ended: ${message(error)}`));
          else {
            member.done = true;
            member.client.end(true);
          }
        }),
      );
    },
  };
}
