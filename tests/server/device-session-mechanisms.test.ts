// The device sessions' mechanisms one by one, without a broker (issue 30; moved verbatim out of
// device-mqtt-sessions.test.ts, which drives them through real MQTT clients): a revoked session is
// closed, a sign-in pending while its device is announced is asked of the database again, report
// parsing, the packet frames that close an oversize packet on its fixed header, one client's pace.
import { EventEmitter } from 'node:events';
import type { Client } from 'aedes';
import { describe, expect, it, vi } from 'vitest';
import { DeviceSessions } from '../../server/ingest/deviceSessions';
import { ClientPace, MQTT_PACKET_LIMIT, PacketFrames } from '../../server/ingest/mqttLimits';
import { parseReport } from '../../server/ingest/reportChecks';
import type { Queryable } from '../../server/db/database';
import { varint } from '../support/mqttPackets';

describe('the mechanisms, one by one', () => {
  /** A client as Aedes hands it over: open until closed. */
  const fakeClient = () => {
    const conn = Object.assign(new EventEmitter(), { destroyed: false });
    const client = { closed: false, conn, close: () => Object.assign(client, { closed: true }) };
    return client as unknown as Client & { closed: boolean };
  };
  const signedIn = (id: number) => ({ device: { id, code: `DEV${String(id).padStart(9, '0')}`, name: '', tenant_code: 'T0001', organization_code: 'T0001', product_code: '' }, secretHash: '' });

  /** A database that answers the sessions' check: whether what a session signed in with holds (and counts the questions). */
  const database = (holds: () => boolean | Promise<boolean>) => {
    const asked = { n: 0 };
    const db: Queryable = {
      query: async <T,>() => {
        asked.n += 1;
        return ((await holds()) ? [] : [{ k: 0 }]) as T[];
      },
      exec: async () => undefined,
    };
    return { db, asked };
  };

  it('a sign-in checked before a revocation and admitted after it is asked again: refused when the revocation ended what it signed in with; one begun after it is admitted unasked', async () => {
    const sessions = new DeviceSessions();
    const ended = database(() => false);
    const early = sessions.begin();
    const other = sessions.begin();
    sessions.revoke([7]);
    expect(await sessions.end(early, fakeClient(), signedIn(7), ended.db)).toBe(false);
    expect(ended.asked.n).toBe(1);
    // Another device's sign-in pending at the time is not concerned.
    expect(await sessions.end(other, fakeClient(), signedIn(8), ended.db)).toBe(true);
    const late = sessions.begin();
    const client = fakeClient();
    expect(await sessions.end(late, client, signedIn(7), ended.db)).toBe(true);
    expect(ended.asked.n).toBe(1);
    expect(sessions.deviceOf(client)?.id).toBe(7);
    expect(sessions.revoke([7])).toBe(1);
    expect(client.closed).toBe(true);
    expect(sessions.deviceOf(client)).toBeUndefined();
    expect(sessions.sessionsOf(7)).toEqual([]);
  });

  it('a sign-in with the new secret while the reset before it is still being announced is admitted (the database, asked again, holds the reset)', async () => {
    const sessions = new DeviceSessions();
    const current = database(() => true);
    const signIn = sessions.begin();
    // The reset committed before the sign-in read the device; its announcement arrives only now.
    sessions.heardRevocation([7]);
    const client = fakeClient();
    expect(await sessions.end(signIn, client, signedIn(7), current.db)).toBe(true);
    expect(current.asked.n).toBe(1);
    expect(sessions.sessionsOf(7)).toEqual([client]);
  });

  it('a device announced again while it is asked is asked again; announced on every question, or a database that cannot be asked, refuses it', async () => {
    const sessions = new DeviceSessions();
    let announcements = 2;
    const twice = database(() => {
      if (announcements-- > 0) sessions.heardRevocation([7]);
      return true;
    });
    const signIn = sessions.begin();
    sessions.heardRevocation([7]);
    expect(await sessions.end(signIn, fakeClient(), signedIn(7), twice.db)).toBe(true);
    expect(twice.asked.n).toBe(3);

    const always = database(() => {
      sessions.heardRevocation([7]);
      return true;
    });
    const busy = sessions.begin();
    sessions.heardRevocation([7]);
    expect(await sessions.end(busy, fakeClient(), signedIn(7), always.db)).toBe(false);
    expect(always.asked.n).toBe(3);

    const gone = database(() => Promise.reject(new Error('Connection terminated unexpectedly')));
    const lost = sessions.begin();
    sessions.heardRevocation([7]);
    expect(await sessions.end(lost, fakeClient(), signedIn(7), gone.db)).toBe(false);
    // Nothing is pending any more: a revocation heard now concerns no later sign-in.
    sessions.heardRevocation([7]);
    const after = sessions.begin();
    expect(await sessions.end(after, fakeClient(), signedIn(7), gone.db)).toBe(true);
  });

  it('the packet frames: a packet at the limit passes, one byte more is refused on its length bytes, across chunks', () => {
    const frames = new PacketFrames(MQTT_PACKET_LIMIT);
    const atLimit = Buffer.concat([Buffer.from([0x32]), varint(MQTT_PACKET_LIMIT), Buffer.alloc(MQTT_PACKET_LIMIT)]);
    const ping = Buffer.from([0xc0, 0x00]);
    const stream = Buffer.concat([atLimit, ping, atLimit]);
    // Cut anywhere (inside a header's length bytes too), the packets are followed.
    for (let at = 0; at < stream.length; at += 997) expect(frames.scan(stream.subarray(at, at + 997))).toBeNull();
    const over = varint(MQTT_PACKET_LIMIT + 1);
    expect(frames.scan(Buffer.from([0x32]))).toBeNull();
    // Refused on the length bytes alone: nothing of the body is needed.
    expect(frames.scan(over)).toBe(MQTT_PACKET_LIMIT + 1);
    expect(new PacketFrames(MQTT_PACKET_LIMIT).scan(Buffer.from([0x32, 0xff, 0xff, 0xff, 0xff]))).toBeGreaterThan(MQTT_PACKET_LIMIT);
  });

  it('a report nested deeper than a report is refused before it is parsed; brackets inside strings do not count', () => {
    const now = new Date();
    expect(() => parseReport('['.repeat(8000) + ']'.repeat(8000), now)).toThrow('上报内容不符合要求：/ 嵌套超过 2 层');
    expect(() => parseReport('{"metrics":{"level":[1]}}', now)).toThrow('嵌套超过 2 层');
    expect(parseReport('{"metrics":{"level":1.5},"faultCodes":[3]}', now)).toMatchObject({ metrics: { level: 1.5 }, faultCodes: [3] });
    expect(() => parseReport('{"reportedAt":"[[[[\\"[[["}', now)).toThrow('/reportedAt must match format');
    expect(() => parseReport(' '.repeat(16 * 1024 + 1), now)).toThrow('上报内容超过 16 KiB');
  });

  it('at most the limit of one owner’s tasks run at once, the others in the order they came', () => {
    const pace = new ClientPace<object>({ inFlight: 3, perSecond: 1000, burst: 100_000 });
    const owner = {};
    const started: number[] = [];
    const finishers: Array<() => void> = [];
    for (let k = 0; k < 10; k += 1) {
      pace.run(owner, (finish) => {
        started.push(k);
        finishers.push(finish);
      });
    }
    expect(started).toEqual([0, 1, 2]);
    finishers[1]();
    finishers[1]();
    expect(started).toEqual([0, 1, 2, 3]);
    // Tasks that finish at once are started by the loop, not from inside each other.
    const quick = {};
    let ran = 0;
    for (let k = 0; k < 10_000; k += 1) {
      pace.run(quick, (finish) => {
        ran += 1;
        finish();
      });
    }
    expect(ran).toBe(10_000);
    expect(pace.peakOf(owner)).toBe(3);
    expect(pace.peakOf(quick)).toBe(1);
  });

  it('past its burst, an owner’s tasks start at its rate; another owner is not held back', () => {
    vi.useFakeTimers();
    try {
      // The fake clock: Date.now moves with the timers.
      const pace = new ClientPace<object>({ inFlight: 8, perSecond: 10, burst: 5 }, () => Date.now());
      const [flooding, quiet] = [{}, {}];
      let started = 0;
      const count = (finish: () => void) => {
        started += 1;
        finish();
      };
      for (let k = 0; k < 20; k += 1) pace.run(flooding, count);
      expect(started).toBe(5);
      let other = 0;
      pace.run(quiet, (finish) => {
        other += 1;
        finish();
      });
      expect(other).toBe(1);
      // A tenth of a second gives one more.
      vi.advanceTimersByTime(100);
      expect(started).toBe(6);
      vi.advanceTimersByTime(1000);
      expect(started).toBe(16);
    } finally {
      vi.useRealTimers();
    }
  });
});
