import pg from 'pg';
import type { Database, Queryable, SqlParam } from './database';

function queryable(target: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T>(sql: string, params: readonly SqlParam[] = []) {
      const result = await target.query(sql, [...params]);
      return result.rows as T[];
    },
    async exec(sql: string) {
      await target.query(sql);
    },
  };
}

/** A PostgreSQL server reached through `pg` (DATABASE_URL). */
export function openPostgres(connectionString: string): Database {
  const pool = new pg.Pool({ connectionString, max: 10 });
  return {
    ...queryable(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(queryable(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
