// The central mapping of what the database refuses (server/http/constraints.ts): a unique key
// taken, a broken reference, a transaction that could not be serialised, a timeout or a lost
// connection, each with the product's sentence; checked on the engine's own errors too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUSY_MESSAGE,
  CONCURRENT_CHANGE_MESSAGE,
  databaseFailureOf,
  DUPLICATE_MESSAGE,
  REFERENCE_CHANGED_MESSAGE,
  UNIQUE_MESSAGES,
  uniqueMessageFor,
} from '../../server/http/constraints';
import { defineOperation, type OperationDefinition } from '../../server/core/operation';
import { OPERATIONS } from '../../server/operations/index';
import { ADMIN_PASSWORD, engine, startServer, type TestServer } from './harness';

/** An error as pg and PGlite raise it: an Error with the SQLSTATE and the constraint's fields. */
function databaseError(code: string, fields: { constraint?: string; detail?: string; message?: string } = {}): Error {
  return Object.assign(new Error(fields.message ?? 'database error'), { code, constraint: fields.constraint, detail: fields.detail });
}

const answer = (error: unknown) => {
  const failure = databaseFailureOf(error);
  return failure && { code: failure.code, message: failure.message };
};

describe('databaseFailureOf', () => {
  it('answers a unique violation "409" with the sentence of its constraint, or the general one', () => {
    expect(answer(databaseError('23505', { constraint: 'app_user_login_name_key' }))).toEqual({ code: '409', message: '账号已存在' });
    expect(answer(databaseError('23505', { constraint: 'app_user_phone_key' }))).toEqual({ code: '409', message: '手机号已被使用' });
    expect(answer(databaseError('23505', { constraint: 'organization_code_key' }))).toEqual({ code: '409', message: '组织编码已存在，请重试' });
    expect(answer(databaseError('23505', { constraint: 'role_pkey' }))).toEqual({ code: '409', message: '角色编码已存在' });
    expect(answer(databaseError('23505', { constraint: 'invoice_order_idx' }))).toEqual({ code: '409', message: '该订单已申请开票，不能重复申请' });
    expect(answer(databaseError('23505', { constraint: 'some_new_key' }))).toEqual({ code: '409', message: DUPLICATE_MESSAGE });
    expect(answer(databaseError('23505'))).toEqual({ code: '409', message: '数据已存在，请勿重复提交' });
  });

  it('tells a reference to a row that is gone from a row still referenced', () => {
    const missing = databaseError('23503', {
      constraint: 'user_role_role_code_fkey',
      message: 'insert or update on table "user_role" violates foreign key constraint "user_role_role_code_fkey"',
      detail: 'Key (role_code)=(NOPE) is not present in table "role".',
    });
    expect(answer(missing)).toEqual({ code: '409', message: '所选角色不存在或已被删除，请刷新后重试' });
    const referenced = databaseError('23503', {
      constraint: 'device_organization_code_fkey',
      message: 'update or delete on table "organization" violates foreign key constraint "device_organization_code_fkey" on table "device"',
      detail: 'Key (code)=(T0001P01) is still referenced from table "device".',
    });
    expect(answer(referenced)).toEqual({ code: '409', message: '该组织仍被其他数据使用，不能删除' });
    const unknownTable = databaseError('23503', { detail: 'Key (x)=(1) is not present in table "somewhere".' });
    expect(answer(unknownTable)).toEqual({ code: '409', message: '所选数据不存在或已被删除，请刷新后重试' });
    expect(answer(databaseError('23503'))).toEqual({ code: '409', message: REFERENCE_CHANGED_MESSAGE });
    expect(REFERENCE_CHANGED_MESSAGE).toBe('关联的数据已变化，请刷新后重试');
  });

  it('answers a transaction still not serialisable after its retries "409" 数据已被他人修改', () => {
    expect(answer(databaseError('40001'))).toEqual({ code: '409', message: '数据已被他人修改，请刷新后重试' });
    expect(answer(databaseError('40P01'))).toEqual({ code: '409', message: CONCURRENT_CHANGE_MESSAGE });
  });

  it('answers a timeout, a lock not granted and a lost connection "503" 服务繁忙', () => {
    const busy = { code: '503', message: '服务繁忙，请稍后重试' };
    expect(BUSY_MESSAGE).toBe(busy.message);
    expect(answer(databaseError('57014', { message: 'canceling statement due to statement timeout' }))).toEqual(busy);
    expect(answer(databaseError('55P03'))).toEqual(busy);
    expect(answer(databaseError('53300'))).toEqual(busy);
    expect(answer(databaseError('57P01', { message: 'terminating connection due to administrator command' }))).toEqual(busy);
    expect(answer(databaseError('08006'))).toEqual(busy);
    expect(answer(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toEqual(busy);
    expect(answer(new Error('Connection terminated unexpectedly'))).toEqual(busy);
    expect(answer(new Error('timeout exceeded when trying to connect'))).toEqual(busy);
  });

  it('leaves anything else to the server\'s "500"', () => {
    expect(databaseFailureOf(new Error('boom'))).toBeNull();
    expect(databaseFailureOf(databaseError('42P01', { message: 'relation "nowhere" does not exist' }))).toBeNull();
    expect(databaseFailureOf(databaseError('23514'))).toBeNull();
    expect(databaseFailureOf(null)).toBeNull();
    expect(databaseFailureOf('23505')).toBeNull();
  });
});

describe(`the engine's own errors (${engine})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  const refusal = async (sql: string, params: string[] = []) => {
    try {
      await server.db.query(sql, params);
    } catch (error) {
      return answer(error);
    }
    throw new Error(`expected the database to refuse: ${sql}`);
  };

  it('carry the SQLSTATE and the constraint that the mapping reads', async () => {
    expect(await refusal(`INSERT INTO role (code, name, scope) VALUES ('TENANT_ADMIN', '重复', 'tenant')`)).toEqual({ code: '409', message: '角色编码已存在' });
    expect(await refusal(`UPDATE app_user SET phone = '13800000001' WHERE login_name = 'repair'`)).toEqual({ code: '409', message: '手机号已被使用' });
    expect(await refusal(`INSERT INTO user_role (user_id, role_code) SELECT id, 'NO_SUCH_ROLE' FROM app_user WHERE login_name = 'repair'`)).toEqual({
      code: '409',
      message: '所选角色不存在或已被删除，请刷新后重试',
    });
    expect(await refusal(`DELETE FROM organization WHERE code = 'T0001P01'`)).toEqual({ code: '409', message: '该组织仍被其他数据使用，不能删除' });
  });

  it('answers a key taken in a partition with its partitioned table’s sentence', async () => {
    const [reading] = await server.db.query<{ device_id: number; reported_at: Date }>('SELECT device_id, reported_at FROM device_telemetry ORDER BY reported_at DESC LIMIT 1');
    expect(await refusal(`INSERT INTO device_telemetry (device_id, reported_at) VALUES (${reading.device_id}, '${reading.reported_at.toISOString()}')`)).toEqual({
      code: '409',
      message: '该时刻的设备数据已存在',
    });
    expect(uniqueMessageFor('device_telemetry_p202611_pkey')).toBe('该时刻的设备数据已存在');
    expect(uniqueMessageFor('device_telemetry_default_pkey')).toBe('该时刻的设备数据已存在');
    expect(uniqueMessageFor('device_p202611_pkey')).toBeUndefined();
  });

  it('has a sentence for every unique key of the migrations (a serial id needs none)', async () => {
    const keys = await server.db.query<{ name: string; columns: string[] }>(
      `SELECT i.relname::text AS name, ARRAY(SELECT a.attname::text FROM unnest(x.indkey) AS k JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k) AS columns
         FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE x.indisunique AND n.nspname = current_schema()`,
    );
    expect(keys.length).toBeGreaterThan(100);
    const serialIds = keys.filter((key) => key.name.endsWith('_pkey') && key.columns.length === 1 && key.columns[0] === 'id');
    const named = keys.filter((key) => !serialIds.includes(key)).map((key) => key.name);
    expect(named.filter((name) => !uniqueMessageFor(name))).toEqual([]);
    // And nothing stale: every sentence belongs to a key that exists.
    expect(Object.keys(UNIQUE_MESSAGES).filter((name) => !named.includes(name))).toEqual([]);
  });

  it.skipIf(engine !== 'postgres')('answers a statement cancelled by the statement timeout "503"', async () => {
    const cancelled = await server.db
      .transaction(async (tx) => {
        await tx.exec(`SET LOCAL statement_timeout = '50ms'`);
        await tx.query('SELECT pg_sleep(2)');
      })
      .then(() => null, (error: unknown) => answer(error));
    expect(cancelled).toEqual({ code: '503', message: BUSY_MESSAGE });
  });
});

describe('the error handler', () => {
  let server: TestServer;
  const raising = (error: Error): OperationDefinition =>
    defineOperation('auth.init', {
      handler: async () => {
        throw error;
      },
    });

  afterAll(() => server.close());

  it('answers what the database refused in the product\'s words, and logs the constraint for the operator', async () => {
    const clash = databaseError('23505', { constraint: 'app_user_login_name_key', message: 'duplicate key value violates unique constraint "app_user_login_name_key"' });
    server = await startServer({ operations: [...OPERATIONS.filter((operation) => operation.name !== 'auth.init'), raising(clash)] });
    const token = await server.login('admin', ADMIN_PASSWORD);
    expect(await server.call('auth.init', {}, { token })).toEqual({ code: '409', message: '账号已存在', data: null });
    const line = server.logs.find((entry) => entry.includes('database refused the call'));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ level: 40, sqlState: '23505', constraint: 'app_user_login_name_key' });
  });
});
