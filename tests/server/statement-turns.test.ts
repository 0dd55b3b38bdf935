import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { openPglite, statementTurns, type PgliteDatabase } from '../../server/db/pglite';

/**
 * PGlite runs statements synchronously on the event loop. Unless each statement waits for its own
 * turn of the loop, a burst of requests runs to completion inside one turn, and the server neither
 * accepts connections nor reads requests meanwhile (issue 9: the soak's callers locked out).
 */

/** Counts turns of the event loop (one setImmediate per turn) until stopped. */
function loopTurns(): { now(): number; stop(): void } {
  let turns = 0;
  let running = true;
  const tick = () => {
    turns += 1;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return { now: () => turns, stop: () => (running = false) };
}

describe('statementTurns', () => {
  it('runs work one at a time, first come first served, each in a later turn of the event loop', async () => {
    const inTurn = statementTurns();
    const turns = loopTurns();
    const log: string[] = [];
    const startedAt: number[] = [];
    const work = (name: string) =>
      inTurn(async () => {
        startedAt.push(turns.now());
        log.push(`start ${name}`);
        await Promise.resolve();
        log.push(`end ${name}`);
        return name;
      });
    const answers = await Promise.all(['a', 'b', 'c', 'd'].map(work));
    turns.stop();
    expect(answers).toEqual(['a', 'b', 'c', 'd']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c', 'start d', 'end d']);
    for (let index = 1; index < startedAt.length; index += 1) expect(startedAt[index]).toBeGreaterThan(startedAt[index - 1]);
  });

  it('passes the turn on when work fails', async () => {
    const inTurn = statementTurns();
    const failed = inTurn(() => Promise.reject(new Error('boom')));
    const next = inTurn(() => Promise.resolve('next'));
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
  });
});

describe('PGlite statements under load', () => {
  let db: PgliteDatabase;
  beforeAll(async () => {
    db = await openPglite({ dump: new Blob([readFileSync(inject('seededDatabaseDump'))]) });
  });
  afterAll(async () => {
    await db.close();
  });

  it('lets the event loop turn between statements of concurrent callers', async () => {
    const turns = loopTurns();
    const finishedAt: number[] = [];
    const statements = Array.from({ length: 40 }, (_, index) =>
      (index % 4 === 3
        ? db.transaction(async (tx) => {
            await tx.query('SELECT count(*) FROM organization');
            await tx.query('SELECT count(*) FROM app_user');
          })
        : db.query('SELECT count(*)::int AS n FROM device WHERE id % 7 = $1', [index % 7])
      ).then(() => finishedAt.push(turns.now())),
    );
    await Promise.all(statements);
    turns.stop();
    // Each statement (a transaction counts as one) finished in a turn of its own: between any two
    // the loop polled for connections and requests. Run back to back, all 40 finished in one turn.
    expect(new Set(finishedAt).size).toBe(statements.length);
  });
});
