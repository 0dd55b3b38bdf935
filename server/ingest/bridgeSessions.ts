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

/** Waits until nothing is being stored and nothing arrived for `quietMs` (or `limitMs` passed: answers false). */
async function quiet(member: Member, quietMs: number, limitMs = Infinity): Promise<boolean> {
  const until = Date.now() + limitMs;
  while (member.inFlight > 0 || Date.now() - member.lastActivity < quietMs) {
    if (Date.now() > until || member.done) return false;
    await pause(100);
  }
  return true;
}

/** The sessions this instance holds: its own, and those it took over and is draining. */
class SessionPool implements BridgeSessions {
  private readonly holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly members = new Map<string, Member>();
  private readonly drains = new Set<Promise<void>>();
  private readonly v5: boolean;
  private own: Member | null = null;
  private closing = false;
  private looking: Promise<void> | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly db: Database,
    private readonly now: () => Date,
    private readonly options: BridgeSessionOptions,
  ) {
    this.v5 = options.protocolVersion === 5;
  }

  private leaseUntil(): Date {
    return new Date(this.now().getTime() + SESSION_LEASE_MS);
  }

  /** Renews the leases of these sessions; answers those still this instance's. */
  private async renew(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.query<{ client_id: string }>('UPDATE mqtt_bridge_session SET lease_until = $3 WHERE holder = $1 AND client_id = ANY($2::text[]) RETURNING client_id', [
      this.holder,
      ids,
      this.leaseUntil(),
    ]);
    return new Set(rows.map((row) => row.client_id));
  }

  private connectionOptions(clientId: string, clean: boolean): IClientOptions {
    return {
      clientId,
      clean,
      protocolVersion: this.options.protocolVersion,
      ...(this.v5 ? { properties: { sessionExpiryInterval: clean ? 0 : SESSION_EXPIRY_SECONDS } } : {}),
      reconnectPeriod: 0,
      connectTimeout: 10_000,
    };
  }

  private giveUp(member: Member, why: string): void {
    if (member.done) return;
    member.done = true;
    this.members.delete(member.clientId);
    member.client.end(true);
    this.options.log(`mqtt bridge: session ${member.clientId} given up: ${why}`);
    if (member === this.own && !this.closing) void this.startOwn().catch((error: unknown) => this.options.log(`mqtt bridge: a new session could not be started: ${message(error)}`));
  }

  /** A lost connection is resumed while the lease holds (checked first: another instance may have taken the session over). */
  private resume(member: Member): void {
    if (member.done || this.closing || member.reconnecting) return;
    member.reconnecting = true;
    setTimeout(() => {
      this.renew([member.clientId]).then(
        (held) => {
          member.reconnecting = false;
          if (member.done || this.closing) return;
          if (!held.has(member.clientId)) this.giveUp(member, 'another instance holds it now');
          else member.client.reconnect();
        },
        (error: unknown) => {
          member.reconnecting = false;
          this.options.log(`mqtt bridge: the lease of ${member.clientId} could not be checked: ${message(error)}`);
          this.resume(member);
        },
      );
    }, RECONNECT_MS).unref();
  }

  /** Hands each message to the handler; the library sends the PUBACK once this calls back: stored first. */
  private handleMessages(member: Member): void {
    // Set before the connection opens, so what a resumed session held is handled too.
    member.client.handleMessage = (packet, callback) => {
      member.inFlight += 1;
      member.lastActivity = Date.now();
      const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
      this.options
        .handle(packet.topic, payload)
        .then(
          () => callback(),
          (error: unknown) => {
            this.options.log(`mqtt bridge: a message on ${packet.topic} could not be stored: ${message(error)}`);
            callback(error instanceof Error ? error : new Error(String(error)));
          },
        )
        .finally(() => {
          member.inFlight -= 1;
          member.lastActivity = Date.now();
        });
    };
  }

  /** Connects a session under `clientId`; answers it with whether the broker had it. */
  private async connectMember(clientId: string, adopted: boolean): Promise<{ member: Member; sessionPresent: boolean }> {
    const client = mqtt.connect(this.options.url, this.connectionOptions(clientId, false));
    const member: Member = { clientId, client, adopted, done: false, inFlight: 0, lastActivity: Date.now(), reconnecting: false };
    this.handleMessages(member);
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
      if (!reported) this.options.log(`mqtt bridge: session ${clientId}: ${error.message}`);
      reported = true;
    });
    client.on('connect', (packet) => {
      reported = false;
      // Resumed on a broker that no longer had the session (it restarted without keeping them): an own session subscribes again.
      if (!packet.sessionPresent && !member.adopted && !member.done) {
        client.subscribeAsync(this.options.topics, { qos: 1 }).catch((error: unknown) => this.options.log(`mqtt bridge: session ${clientId} could not subscribe again: ${message(error)}`));
      }
    });
    client.on('close', () => this.resume(member));
    this.members.set(clientId, member);
    return { member, sessionPresent: connack.sessionPresent };
  }

  /** Ends a session for good: the broker forgets it, and so does the table. */
  private async retire(member: Member): Promise<void> {
    member.done = true;
    this.members.delete(member.clientId);
    if (this.v5) await member.client.endAsync(false, { reasonCode: 0, properties: { sessionExpiryInterval: 0 } });
    else {
      await member.client.endAsync();
      const clean = await mqtt.connectAsync(this.options.url, this.connectionOptions(member.clientId, true));
      await clean.endAsync();
    }
    await this.db.query('DELETE FROM mqtt_bridge_session WHERE client_id = $1 AND holder = $2', [member.clientId, this.holder]);
  }

  async startOwn(): Promise<void> {
    const clientId = `iot-platform-${randomBytes(6).toString('hex')}`;
    await this.db.query('INSERT INTO mqtt_bridge_session (client_id, holder, lease_until, created_at) VALUES ($1, $2, $3, $4)', [clientId, this.holder, this.leaseUntil(), this.now()]);
    const { member } = await this.connectMember(clientId, false);
    await member.client.subscribeAsync(this.options.topics, { qos: 1 });
    this.own = member;
  }

  /** A session another instance held: resumed, unsubscribed, drained, ended. */
  private async drain(clientId: string): Promise<void> {
    let connected: { member: Member; sessionPresent: boolean };
    try {
      connected = await this.connectMember(clientId, true);
    } catch (error) {
      // Let the lease lapse at once: the next look tries again.
      await this.db.query('UPDATE mqtt_bridge_session SET lease_until = $3 WHERE client_id = $1 AND holder = $2', [clientId, this.holder, this.now()]);
      throw error;
    }
    const { member, sessionPresent } = connected;
    this.options.log(`mqtt bridge: took over session ${clientId}${sessionPresent ? '' : ' (the broker no longer had it)'}`);
    if (sessionPresent) {
      await member.client.unsubscribeAsync(this.options.topics).catch(() => undefined);
      await quiet(member, DRAIN_QUIET_MS);
    }
    if (!member.done) await this.retire(member);
  }

  connected(): boolean {
    return this.own?.client.connected ?? false;
  }

  async adopt(): Promise<void> {
    while (!this.closing) {
      const [row] = await this.db.query<{ client_id: string }>(
        `UPDATE mqtt_bridge_session SET holder = $1, lease_until = $3
          WHERE client_id = (SELECT client_id FROM mqtt_bridge_session WHERE lease_until < $2 ORDER BY lease_until LIMIT 1 FOR UPDATE SKIP LOCKED)
          RETURNING client_id`,
        [this.holder, this.now(), this.leaseUntil()],
      );
      if (!row) break;
      const going = this.drain(row.client_id).catch((error: unknown) => this.options.log(`mqtt bridge: session ${row.client_id} could not be taken over: ${message(error)}`));
      this.drains.add(going);
      void going.finally(() => this.drains.delete(going));
    }
    await Promise.all([...this.drains]);
  }

  /** Every few seconds: the leases renewed (a session lost to another instance given up), lapsed ones looked for. */
  private tick(): void {
    if (this.closing) return;
    void this.renew([...this.members.keys()]).then(
      (held) => {
        for (const member of [...this.members.values()]) if (!held.has(member.clientId)) this.giveUp(member, 'its lease lapsed and another instance holds it');
      },
      (error: unknown) => this.options.log(`mqtt bridge: the sessions' leases could not be renewed: ${message(error)}`),
    );
    if (!this.looking) {
      this.looking = this.adopt()
        .catch((error: unknown) => this.options.log(`mqtt bridge: sessions to take over could not be looked for: ${message(error)}`))
        .finally(() => {
          this.looking = null;
        });
    }
  }

  startTimer(): void {
    this.timer = setInterval(() => this.tick(), RENEW_MS);
    this.timer.unref();
  }

  /** The broker routes nothing new to it; what it holds is stored, then the session ends. Too slow: left to be taken over. */
  private async closeMember(member: Member): Promise<void> {
    if (!member.client.connected) {
      member.done = true;
      member.client.end(true);
      return;
    }
    const unsubscribed = await Promise.race([member.client.unsubscribeAsync(this.options.topics).then(() => true, () => false), pause(CLOSE_LIMIT_MS).then(() => false)]);
    if (unsubscribed && (await quiet(member, CLOSE_QUIET_MS, CLOSE_LIMIT_MS))) await this.retire(member).catch((error: unknown) => this.options.log(`mqtt bridge: session ${member.clientId} could not be ended: ${message(error)}`));
    else {
      member.done = true;
      member.client.end(true);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.race([Promise.all([...this.drains]), pause(CLOSE_LIMIT_MS)]);
    await Promise.all([...this.members.values()].map((member) => this.closeMember(member)));
  }
}

export async function startBridgeSessions(db: Database, now: () => Date, options: BridgeSessionOptions): Promise<BridgeSessions> {
  const pool = new SessionPool(db, now, options);
  await pool.startOwn();
  pool.startTimer();
  return pool;
}
