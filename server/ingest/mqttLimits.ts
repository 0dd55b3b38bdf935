import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { REPORT_BODY_LIMIT } from './reportChecks';

/**
 * What one device may put on the embedded broker (issue 30): a packet no larger than a report, and
 * its messages at a pace (a few in hand at once, a sustained rate). Neither Aedes (1.x) nor mqtt-packet has a packet size option
 * (moscajs/aedes#831 is open), so the limit is applied on the connection before Aedes reads it: the
 * fixed header of every packet announces its length, and a packet announced past the limit closes
 * the connection there, before a byte of it is buffered or parsed.
 */

/** `devices/<12 characters>/telemetry`. */
const TELEMETRY_TOPIC_BYTES = 'devices/'.length + 12 + '/telemetry'.length;
/**
 * The largest remaining length (what a fixed header announces) of a packet a device may send: a
 * PUBLISH of the largest report (REPORT_BODY_LIMIT) on its telemetry topic, with the topic's length
 * and the packet id. A CONNECT or SUBSCRIBE is far smaller.
 */
export const MQTT_PACKET_LIMIT = 2 + TELEMETRY_TOPIC_BYTES + 2 + REPORT_BODY_LIMIT;
/** A client's messages handled (checked and on their way to the database) at once; the rest wait in order. */
export const MQTT_IN_FLIGHT_PER_CLIENT = 8;

/**
 * Follows the MQTT packets of one connection by their fixed headers (a type byte, then the remaining
 * length in one to four bytes of seven bits) without reading their content.
 */
export class PacketFrames {
  private state: 'type' | 'length' | 'body' = 'type';
  private length = 0;
  private multiplier = 1;
  private lengthBytes = 0;
  private remaining = 0;

  constructor(private readonly limit: number) {}

  /**
   * Follows the packets that continue in `chunk`. Answers null, or the length of a packet that is
   * over the limit (known from the first length bytes that pass it; a length of more than four
   * bytes, which MQTT does not allow, counts as over).
   */
  scan(chunk: Buffer): number | null {
    let at = 0;
    while (at < chunk.length) {
      if (this.state === 'body') {
        const taken = Math.min(this.remaining, chunk.length - at);
        at += taken;
        this.remaining -= taken;
        if (this.remaining === 0) this.state = 'type';
        continue;
      }
      const byte = chunk[at];
      at += 1;
      if (this.state === 'type') {
        this.state = 'length';
        this.length = 0;
        this.multiplier = 1;
        this.lengthBytes = 0;
        continue;
      }
      this.length += (byte & 0x7f) * this.multiplier;
      this.multiplier *= 0x80;
      this.lengthBytes += 1;
      // The bytes still to come only add: past the limit now is past it for good.
      if (this.length > this.limit) return this.length;
      if (byte & 0x80) {
        if (this.lengthBytes === 4) return Number.POSITIVE_INFINITY;
        continue;
      }
      this.remaining = this.length;
      this.state = this.remaining === 0 ? 'type' : 'body';
    }
    return null;
  }
}

/**
 * A device's TCP connection as Aedes reads it: the bytes pass through unchanged while their packets
 * keep within `limit`; the first packet past it calls `onOversize` and closes the connection. Reading
 * follows Aedes (the socket pauses while what it has not read fills the buffer), writes go straight
 * to the socket.
 */
export class GatedConnection extends Duplex {
  private readonly frames: PacketFrames;
  private full = false;

  constructor(
    private readonly socket: Socket,
    limit: number,
    private readonly onOversize: (length: number) => void,
  ) {
    super({ allowHalfOpen: false });
    this.frames = new PacketFrames(limit);
    socket.on('data', (chunk: Buffer) => this.pass(chunk));
    socket.once('end', () => this.push(null));
    socket.once('error', (error) => this.destroy(error));
    socket.once('close', () => this.destroy());
  }

  private pass(chunk: Buffer): void {
    if (this.destroyed) return;
    const oversize = this.frames.scan(chunk);
    if (oversize !== null) {
      this.socket.destroy();
      this.destroy();
      this.onOversize(oversize);
      return;
    }
    if (!this.push(chunk)) {
      this.full = true;
      this.socket.pause();
    }
  }

  override _read(): void {
    if (!this.full) return;
    this.full = false;
    this.socket.resume();
  }

  override _write(chunk: Buffer, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.socket.write(chunk, encoding, (error) => callback(error ?? null));
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.socket.end(() => callback());
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.socket.destroy();
    callback(error);
  }
}

/** How much of one client's work the broker takes: messages in hand at once, and a sustained rate with a burst. */
export interface Pace {
  inFlight: number;
  perSecond: number;
  burst: number;
}

/**
 * A device's pace on the embedded broker: 8 messages in hand at once, 50 a second sustained (a
 * device reports every few seconds; one back from a dead zone sends what it buffered), bursts of
 * 200. A client past it waits: Aedes reads its connection again only once what it read is handled,
 * so TCP holds the device back, and its messages cost the server no more than that share.
 */
export const DEVICE_PACE: Pace = { inFlight: MQTT_IN_FLIGHT_PER_CLIENT, perSecond: 50, burst: 200 };

interface Work {
  active: number;
  peak: number;
  waiting: Array<(finish: () => void) => void>;
  pumping: boolean;
  /** Messages the client may still start now (refilled at perSecond, up to burst). */
  tokens: number;
  refilledAt: number;
  wake: ReturnType<typeof setTimeout> | null;
}

/**
 * Paces the tasks of each owner (a client): at most `inFlight` running at once and `perSecond`
 * started a second (after a first `burst`); the others wait, in the order they came. What waits is
 * bounded by what the broker has read of the client: Aedes reads its connection again only once the
 * packets it read are handled.
 */
export class ClientPace<Owner extends object> {
  private readonly work = new WeakMap<Owner, Work>();

  constructor(
    readonly pace: Pace,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Starts `task` in its turn; the task calls `finish` when it is done. */
  run(owner: Owner, task: (finish: () => void) => void): void {
    let work = this.work.get(owner);
    if (!work) {
      work = { active: 0, peak: 0, waiting: [], pumping: false, tokens: this.pace.burst, refilledAt: this.now(), wake: null };
      this.work.set(owner, work);
    }
    work.waiting.push(task);
    this.pump(work);
  }

  /** The most tasks the owner ever had running at once. */
  peakOf(owner: Owner): number {
    return this.work.get(owner)?.peak ?? 0;
  }

  private pump(work: Work): void {
    // A task that finishes at once does not start the next from inside itself: the loop does.
    if (work.pumping) return;
    work.pumping = true;
    const now = this.now();
    work.tokens = Math.min(this.pace.burst, work.tokens + ((now - work.refilledAt) * this.pace.perSecond) / 1000);
    work.refilledAt = now;
    while (work.active < this.pace.inFlight && work.waiting.length > 0) {
      if (work.tokens < 1) {
        // Its next turn, when a message's worth has come back.
        work.wake ??= setTimeout(
          () => {
            work.wake = null;
            this.pump(work);
          },
          Math.ceil(((1 - work.tokens) * 1000) / this.pace.perSecond),
        );
        work.wake.unref?.();
        break;
      }
      const task = work.waiting.shift()!;
      work.tokens -= 1;
      work.active += 1;
      work.peak = Math.max(work.peak, work.active);
      let finished = false;
      task(() => {
        if (finished) return;
        finished = true;
        work.active -= 1;
        this.pump(work);
      });
    }
    work.pumping = false;
  }
}
