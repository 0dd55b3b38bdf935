// Issue 19: the embedded database prepares its statements (server/db/pglite.ts) and runs them with
// EXECUTE and literal parameters. Every parameter must come back exactly as it went in, whatever
// it holds, and a prepared statement must survive what the schema does under it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlParam } from '../../server/db/database';
import { openPglite, sqlLiteral, type PgliteDatabase } from '../../server/db/pglite';

let db: PgliteDatabase;
beforeAll(async () => {
  db = await openPglite();
}, 60_000);
afterAll(() => db.close());

const HOSTILE_TEXTS = [
  '',
  "'",
  "''; DROP TABLE probe; --",
  "O'Brien's \\\\ back\\slash",
  '$$ dollar $tag$ quoted $$',
  'E\'\\x41\'',
  '多字节：设备编码\u00a0空格\ttab\nnewline',
  '\\\'',
  '"double" {brace} ,comma, NULL null',
];

const preparedNames = async () =>
  (await db.query<{ statement: string }>("SELECT statement FROM pg_prepared_statements WHERE starts_with(name, 'iot_') AND statement <> $1", [''])).map((row) => row.statement);

describe('the embedded database prepares its statements', () => {
  it('quotes a literal by doubling its single quotes, and nothing else', () => {
    expect(sqlLiteral("O'Brien")).toBe("'O''Brien'");
    expect(sqlLiteral(null)).toBe('NULL');
    expect(sqlLiteral(12)).toBe("'12'");
    expect(sqlLiteral(false)).toBe("'false'");
    expect(sqlLiteral(new Date('2026-11-27T00:00:00.000Z'))).toBe("'2026-11-27T00:00:00.000Z'");
    expect(sqlLiteral(['a"b', 'c\\d', "e'f"])).toBe(`'{"a\\"b","c\\\\d","e''f"}'`);
    expect(() => sqlLiteral(Number.NaN)).toThrow('not a finite number: NaN');
  });

  it('gives back every text, array, number, time and truth value exactly as it was sent', async () => {
    for (const text of HOSTILE_TEXTS) {
      const [row] = await db.query<{ v: string; n: number }>('SELECT $1::text AS v, length($1::text) AS n', [text]);
      expect(row).toEqual({ v: text, n: [...text].length });
    }
    const [arrays] = await db.query<{ t: string[]; i: number[] }>('SELECT $1::text[] AS t, $2::int[] AS i', [HOSTILE_TEXTS, [1, -2, 3]]);
    expect(arrays).toEqual({ t: HOSTILE_TEXTS, i: [1, -2, 3] });
    const at = new Date('2026-11-27T08:09:10.123Z');
    const values: SqlParam[] = [at, true, 1.5, -7, null];
    const [typed] = await db.query<Record<string, unknown>>('SELECT $1::timestamptz AS at, $2::boolean AS yes, $3::float8 AS half, $4::int AS minus, $5::text AS nothing', values);
    expect(typed).toEqual({ at, yes: true, half: 1.5, minus: -7, nothing: null });
  });

  it('prepares a statement once and runs it again with other values; statements without parameters or that PREPARE refuses go unnamed', async () => {
    await db.exec('CREATE TABLE probe (id int PRIMARY KEY, name text NOT NULL)');
    await db.query('INSERT INTO probe VALUES ($1, $2), ($3, $4)', [1, '一', 2, "'; DROP TABLE probe; --"]);
    const select = 'SELECT name FROM probe WHERE id = $1';
    expect(await db.query(select, [1])).toEqual([{ name: '一' }]);
    expect(await db.query(select, [2])).toEqual([{ name: "'; DROP TABLE probe; --" }]);
    expect((await preparedNames()).filter((statement) => statement.includes('FROM probe WHERE id = $1'))).toHaveLength(1);
    // EXPLAIN cannot be prepared: it is answered as before.
    const [plan] = await db.query<{ 'QUERY PLAN': unknown }>('EXPLAIN (FORMAT JSON) SELECT name FROM probe WHERE id = $1', [1]);
    expect(plan['QUERY PLAN']).toBeDefined();
    expect((await preparedNames()).some((statement) => statement.includes('EXPLAIN'))).toBe(false);
  });

  it('answers with the table as a migration changed it, outside a transaction and inside (a PREPAREd plan is planned again)', async () => {
    const read = 'SELECT * FROM probe WHERE id = $1';
    expect(await db.query(read, [1])).toEqual([{ id: 1, name: '一' }]);
    await db.exec("ALTER TABLE probe ADD COLUMN note text NOT NULL DEFAULT 'n'");
    expect(await db.query(read, [1])).toEqual([{ id: 1, name: '一', note: 'n' }]);
    await db.exec("ALTER TABLE probe ADD COLUMN more text NOT NULL DEFAULT 'm'");
    expect(await db.transaction((tx) => tx.query(read, [1]))).toEqual([{ id: 1, name: '一', note: 'n', more: 'm' }]);
    // A statement the session lost (DEALLOCATE ALL: 26000) is prepared again.
    await db.exec('DEALLOCATE ALL');
    expect(await db.query(read, [1])).toEqual([{ id: 1, name: '一', note: 'n', more: 'm' }]);
    expect(await db.query(read, [1])).toEqual([{ id: 1, name: '一', note: 'n', more: 'm' }]);
  });

  it('can be switched off', async () => {
    const plain = await openPglite({ preparedStatements: false });
    try {
      expect(await plain.query('SELECT $1::text AS v', ["'"])).toEqual([{ v: "'" }]);
      expect(await plain.query("SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name <> $1", [''])).toEqual([{ n: 0 }]);
    } finally {
      await plain.close();
    }
  }, 60_000);
});
