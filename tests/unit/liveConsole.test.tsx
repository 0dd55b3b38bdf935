// The console's end of the live stream (issue 22): the stream's address carries the session, its
// events reach the subscribers, a stream the server closed is opened again with the session's
// current token and the last event id, and the events mark what they change stale in the page
// cache, a burst of them at once.
import { QueryClient } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { announce, connectLive, liveAddress, onLiveEvent, type LiveEvent } from '../../src/live/liveEvents';
import { isStaleAfterLive, useLiveConsole } from '../../src/live/useLiveConsole';
import { clearSession, readSession, writeSession } from '../../src/session/storage';

/** An EventSource the test drives: open, send a frame, close as a refused stream. */
class FakeSource {
  static made: FakeSource[] = [];
  readyState = 0;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  private readonly handlers = new Map<string, Array<(message: MessageEvent<string>) => void>>();
  constructor(readonly url: string) {
    FakeSource.made.push(this);
  }
  addEventListener(kind: string, handler: (message: MessageEvent<string>) => void) {
    this.handlers.set(kind, [...(this.handlers.get(kind) ?? []), handler]);
  }
  send(event: LiveEvent) {
    for (const handler of this.handlers.get(event.kind) ?? []) handler({ data: JSON.stringify(event), lastEventId: event.id } as MessageEvent<string>);
  }
  refuse() {
    this.readyState = 2;
    this.onerror?.();
  }
  /** What the server sends a stream whose token it refused. */
  sessionRefused() {
    for (const handler of this.handlers.get('session') ?? []) handler({ data: '{"code":"301"}', lastEventId: '' } as MessageEvent<string>);
  }
  close() {
    this.closed = true;
  }
}
const fake = (url: string) => new FakeSource(url) as unknown as EventSource;

const event = (kind: LiveEvent['kind'], id: string): LiveEvent => ({ id, kind, organizationCode: 'T0001', payload: { deviceCode: 'SDNB01000397' }, at: '2026-11-27T10:00:00.000Z' });

afterEach(() => {
  FakeSource.made = [];
  vi.useRealTimers();
});

describe('the live stream in the console', () => {
  it('is addressed with the session’s token and organisation, and not without a session', () => {
    expect(liveAddress()).toBeNull();
    writeSession('accessToken', 'token-1');
    writeSession('orgCode', 'T0001');
    expect(liveAddress()).toBe('/api/live/events?token=token-1&orgCode=T0001');
  });

  it('hands each event to the subscribers; a refused stream opens again with the current token and the last id, later each time', () => {
    vi.useFakeTimers();
    writeSession('accessToken', 'token-1');
    const seen: string[] = [];
    const off = onLiveEvent((received) => seen.push(`${received.kind}#${received.id}`));
    const connection = connectLive(fake);
    const [first] = FakeSource.made;
    first.send(event('alarm.raised', '41'));
    first.send(event('device.online', '42'));
    expect(seen).toEqual(['alarm.raised#41', 'device.online#42']);

    writeSession('accessToken', 'token-2');
    first.refuse();
    expect(FakeSource.made).toHaveLength(1);
    vi.advanceTimersByTime(2_000);
    expect(FakeSource.made).toHaveLength(2);
    expect(FakeSource.made[1].url).toBe('/api/live/events?token=token-2&lastEventId=42');
    FakeSource.made[1].refuse();
    vi.advanceTimersByTime(2_000);
    expect(FakeSource.made).toHaveLength(2);
    vi.advanceTimersByTime(2_000);
    expect(FakeSource.made).toHaveLength(3);

    // A token the server refused: told in the stream, closed, opened again with the next token.
    writeSession('accessToken', 'token-3');
    FakeSource.made[2].sessionRefused();
    expect(FakeSource.made[2].closed).toBe(true);
    vi.advanceTimersByTime(8_000);
    expect(FakeSource.made).toHaveLength(4);
    expect(FakeSource.made[3].url).toBe('/api/live/events?token=token-3&lastEventId=42');

    connection.close();
    expect(FakeSource.made[3].closed).toBe(true);
    off();
    announce(event('alarm.recovered', '43'));
    expect(seen).toHaveLength(2);
  });

  it('a stream whose session ended is not opened again with its dead token: the session is asked first', async () => {
    vi.useFakeTimers();
    writeSession('accessToken', 'token-a');
    let answer: () => void = () => undefined;
    const asked = vi.fn(
      () =>
        new Promise<void>((resolve, reject) => {
          answer = () => (readSession('accessToken') ? resolve() : reject(new Error('301')));
        }),
    );
    const connection = connectLive(fake, asked);
    // Told its session ended while the token in storage is still the one it used: asked, not reopened.
    FakeSource.made[0].sessionRefused();
    expect(FakeSource.made[0].closed).toBe(true);
    expect(asked).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(FakeSource.made).toHaveLength(1);
    // The http client renewed the token: opened at once with the new one.
    writeSession('accessToken', 'token-b');
    answer();
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeSource.made).toHaveLength(2);
    expect(FakeSource.made[1].url).toBe('/api/live/events?token=token-b');
    // Ended for good (signed out elsewhere): the http client cleared the session; nothing reopens.
    FakeSource.made[1].sessionRefused();
    expect(asked).toHaveBeenCalledTimes(2);
    clearSession();
    answer();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(FakeSource.made).toHaveLength(2);
    connection.close();
  });

  it('marks stale what an event changes, once for a burst, and nothing else', async () => {
    vi.useFakeTimers();
    const queries = new QueryClient();
    const keys = [['alarm.record.page', {}], ['dashboard.overview', {}], ['device.page', {}], ['card.sim.page', {}]] as const;
    for (const key of keys) queries.setQueryData(key, { records: [] });
    const invalidate = vi.spyOn(queries, 'invalidateQueries');
    const { unmount } = renderHook(() => useLiveConsole(queries, 'u1|0'));
    announce(event('alarm.raised', '50'));
    announce(event('alarm.raised', '51'));
    expect(invalidate).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(500);
    expect(invalidate).toHaveBeenCalledTimes(1);
    const stale = keys.filter((key) => queries.getQueryState(key)?.isInvalidated).map((key) => key[0]);
    expect(stale).toEqual(['alarm.record.page', 'dashboard.overview']);
    unmount();
    expect(isStaleAfterLive('device.page', new Set(['device.']))).toBe(true);
    expect(isStaleAfterLive('monitoring.alarm.page', new Set(['alarm.']))).toBe(false);
  });
});
