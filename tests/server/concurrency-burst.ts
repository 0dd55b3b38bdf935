// Shared by the concurrency suite (tests/server/concurrency-*.test.ts): identical writes fired at
// once, and the check that exactly one of them won while the others were refused as they would be
// one after another.
import { expect } from 'vitest';
import type { Envelope } from '../../server/http/envelope';
import { catalogue, type TestServer } from './harness';

/** How many identical callers a burst sends at once. */
export const CALLERS = 10;

export interface Answer<T = unknown> {
  /** The HTTP status (200 for every answer the envelope carries, a refusal included). */
  status: number;
  body: Envelope<T>;
}

/**
 * `times` calls of `name` sent at once (none waits for another's answer), `param(index)` for the
 * index-th; the answers in the order the calls were sent.
 */
export function burst<T = unknown>(server: TestServer, name: string, param: (index: number) => unknown, token: string, times = CALLERS): Promise<Array<Answer<T>>> {
  const entry = catalogue[name];
  if (!entry) throw new Error(`operation ${name} is not catalogued`);
  return Promise.all(
    Array.from({ length: times }, async (_, index) => {
      const { status, body } = await server.post(entry.path, { param: param(index) }, { token });
      return { status, body: body as Envelope<T> };
    }),
  );
}

/**
 * Exactly one answer is "200"; every other is the refusal a second caller gets one after another
 * (`refusal`: its code, "409" unless given, and its message); none is a server error. Answers the
 * winner's index and data.
 */
export function oneWinner<T>(answers: ReadonlyArray<Answer<T>>, refusal: { code?: string; message: string | RegExp }): { index: number; data: T } {
  const summary = JSON.stringify(answers.map((answer) => [answer.status, answer.body.code, answer.body.message]));
  expect(answers.every((answer) => answer.status === 200), summary).toBe(true);
  expect(answers.filter((answer) => answer.body.code.startsWith('5')), summary).toEqual([]);
  const winners = answers.flatMap((answer, index) => (answer.body.code === '200' ? [index] : []));
  expect(winners, summary).toHaveLength(1);
  for (const answer of answers) {
    if (answer.body.code === '200') continue;
    expect(answer.body.code, summary).toBe(refusal.code ?? '409');
    if (typeof refusal.message === 'string') expect(answer.body.message, summary).toBe(refusal.message);
    else expect(answer.body.message, summary).toMatch(refusal.message);
  }
  return { index: winners[0], data: answers[winners[0]].body.data as T };
}

/** The first column of the first row `sql` answers. */
export async function scalar<T>(server: TestServer, sql: string, params: ReadonlyArray<string | number | boolean | null | readonly string[] | readonly number[]> = []): Promise<T> {
  const [row] = await server.db.query<{ value: T }>(sql, params);
  if (!row) throw new Error(`no row for ${sql}`);
  return row.value;
}

/** `count` calls sent at once (none waits for another's answer), answered in the order sent. */
export function atOnce<T>(count: number, call: (index: number) => Promise<Envelope<T>>): Promise<Array<Answer<T>>> {
  return Promise.all(Array.from({ length: count }, async (_, index) => ({ status: 200, body: await call(index) })));
}

/** How many answers said what: "200", or "code message" for a refusal. */
export function outcomes(answers: ReadonlyArray<Answer>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { body } of answers) {
    const key = body.code === '200' ? '200' : `${body.code} ${body.message}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** Exactly one "200"; the others answer `code` with `message`. */
export const expectOneWinner = (answers: ReadonlyArray<Answer>, code: string, message: string) => oneWinner(answers, { code, message });
