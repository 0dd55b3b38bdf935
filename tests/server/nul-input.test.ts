// A NUL character (U+0000) in any text of a request (issue 18, finding 8): PostgreSQL refuses it in
// text and jsonb, so it used to reach SQL and answer "500" with a stack trace in the log. One check
// of the parsed body or query, before the schema, answers "400" naming the field for every
// catalogued operation, anonymous ones included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { defaultConfig } from '../../server/config';
import { nulFieldOf } from '../../server/http/errors';
import { defineOperation, type RefusedInput } from '../../server/core/operation';
import type { ParamSchema } from '../../server/core/params';
import { OPERATIONS } from '../../server/operations/index';
import { multipartBody, PNG } from './frame-helpers';
import { ADMIN_PASSWORD, catalogue, startServer, type TestServer } from './harness';

/** Operations whose success would end the run's session or rebuild the database (as fuzz.ts). */
const SKIPPED = new Set(['auth.logout', 'dev.reset', 'dev.session.expire']);
const NUL = 'a\u0000b';

let server: TestServer;
let tadmin: string;
/** Callers of every role: an operation is tried as the first one it admits. */
let callers: string[];
beforeAll(async () => {
  server = await startServer();
  callers = await Promise.all([
    server.login('tadmin'),
    server.login('admin', ADMIN_PASSWORD),
    server.login('operator'),
    server.login('repair'),
    server.login('patrol'),
    server.login('implement'),
    server.login('tuser'),
  ]);
  [tadmin] = callers;
});
afterAll(() => server.close());

const schemas = new Map(OPERATIONS.map((operation) => [operation.name, operation.paramSchema]));

/** A string field of the operation's param (the first one declared), or one it does not declare. */
function stringFieldOf(schema: ParamSchema | undefined): string {
  const properties = (schema?.properties ?? {}) as Record<string, { type?: unknown }>;
  return Object.entries(properties).find(([, property]) => property.type === 'string')?.[0] ?? 'note';
}

interface Answer {
  status: number;
  code: string;
  message: string;
}

async function send(name: string, token: string, where: 'param' | 'sort'): Promise<{ answer: Answer; field: string }> {
  const entry = catalogue[name];
  const schema = schemas.get(name);
  const headers: Record<string, string> = { token };
  let field: string;
  let response;
  if (entry.kind === 'upload') {
    field = 'file';
    const { body, contentType } = multipartBody(`a\u0000.png`, PNG);
    response = await server.app.inject({ method: 'POST', url: `/api${entry.path}`, headers: { ...headers, 'content-type': contentType }, payload: body });
  } else if (entry.kind === 'get') {
    field = stringFieldOf(schema);
    response = await server.app.inject({ method: 'GET', url: `/api${entry.path}?${encodeURIComponent(field)}=${encodeURIComponent(NUL)}`, headers });
  } else {
    let body: object;
    if (where === 'sort') {
      field = 'sortParamList.0.field';
      body = { pageParam: { pageNumber: 1, pageSize: 10 }, param: {}, sortParamList: [{ field: NUL, order: 'asc' }] };
    } else if (schema?.type === 'string') {
      field = 'param';
      body = { param: NUL };
    } else {
      field = stringFieldOf(schema);
      body = { param: { [field]: NUL } };
    }
    response = await server.app.inject({ method: 'POST', url: `/api${entry.path}`, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  }
  const json = response.json<{ code: string; message: string }>();
  return { answer: { status: response.statusCode, code: json.code, message: json.message }, field };
}

describe('a NUL character in a text field', () => {
  it('is refused with "400" naming the field by every catalogued operation, never "500"', async () => {
    const names = Object.keys(catalogue).filter((name) => !SKIPPED.has(name));
    const unreached: string[] = [];
    for (const name of names) {
      let admitted: string | null = null;
      for (const caller of callers) {
        const sent = await send(name, caller, 'param');
        if (sent.answer.code === '403') continue;
        expect(sent.answer, name).toEqual({ status: 200, code: '400', message: `参数错误：${sent.field}（不能包含空字符）` });
        admitted = caller;
        break;
      }
      if (admitted === null) {
        unreached.push(name);
        continue;
      }
      if (catalogue[name].kind === 'page') {
        const sorted = await send(name, admitted, 'sort');
        expect(sorted.answer, `${name} sort`).toEqual({ status: 200, code: '400', message: '参数错误：sortParamList.0.field（不能包含空字符）' });
      }
    }
    // Every operation admitted one of the callers.
    expect(unreached).toEqual([]);
    expect(server.logs.filter((line) => /"level":50|operation failed/.test(line))).toEqual([]);
    // Still answering.
    expect((await server.call('auth.init', {}, { token: tadmin })).code).toBe('200');
  }, 300_000);

  it('anonymous login: "400" loginName, nothing logged as a fault', async () => {
    const before = server.logs.length;
    for (const param of [
      { loginName: 'tad\u0000min', password: 'x' },
      { loginName: 'tadmin', password: '\u0000' },
    ]) {
      const { status, body } = await server.post(catalogue['auth.login'].path, { param });
      expect(status).toBe(200);
      expect(body).toEqual({ code: '400', message: `参数错误：${param.loginName.includes('\u0000') ? 'loginName' : 'password'}（不能包含空字符）`, data: null });
    }
    expect(server.logs.slice(before).filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
    // Both attempts are in the login log (issue 18 finding 8), the NUL shown as U+FFFD.
    const logged = await server.db.query<{ login_name: string; success: boolean; reason: string }>(
      "SELECT login_name, success, reason FROM login_log WHERE reason = 'invalid input' ORDER BY id DESC LIMIT 2",
    );
    expect(logged).toEqual([
      { login_name: 'tadmin', success: false, reason: 'invalid input' },
      { login_name: 'tad\ufffdmin', success: false, reason: 'invalid input' },
    ]);
  });

  it('in a property name, deep in an array, or in a bare string param', async () => {
    expect(nulFieldOf({ param: { items: [{ name: 'ok' }, { name: NUL }] } })).toBe('items.1.name');
    expect(nulFieldOf({ param: { values: { [NUL]: 1 } } })).toBe('values');
    expect(nulFieldOf({ param: NUL })).toBe('param');
    expect(nulFieldOf({ [NUL]: 1 })).toBe('请求体');
    expect(nulFieldOf({ param: { keyword: 'ok', list: [1, true, null, { x: '设备' }] } })).toBeNull();
    // As deep as JSON allows, without overflowing the stack.
    let deep: unknown = NUL;
    for (let depth = 0; depth < 200_000; depth += 1) deep = [deep];
    expect(nulFieldOf(deep)).toBe(Array.from({ length: 200_000 }, () => '0').join('.'));
    const { body } = await server.post(catalogue['organization.tree'].path, { param: { keyword: ['x', { y: NUL }] } }, { token: tadmin });
    expect(body).toEqual({ code: '400', message: '参数错误：keyword.1.y（不能包含空字符）', data: null });
  });

  it('is checked after the session ("301" first) and lets the operation record the attempt', async () => {
    expect((await server.post(catalogue['organization.tree'].path, { param: { keyword: NUL } })).body.code).toBe('301');
    const seen: RefusedInput[] = [];
    const probe = defineOperation('auth.login', {
      paramSchema: { type: 'object', properties: { loginName: { type: 'string', maxLength: 64 }, password: { type: 'string', maxLength: 64 } }, additionalProperties: false },
      handler: async () => null,
      onRefusedInput: async (refused) => {
        seen.push(refused);
      },
    });
    const app = await buildApp({ db: server.db, config: defaultConfig(), operations: [probe] });
    try {
      const response = await app.inject({ method: 'POST', url: `/api${catalogue['auth.login'].path}`, headers: { 'user-agent': 'probe/1' }, payload: { param: { loginName: 'ad\u0000min', password: 'p' } } });
      expect(response.json()).toEqual({ code: '400', message: '参数错误：loginName（不能包含空字符）', data: null });
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({ param: { loginName: 'ad\ufffdmin', password: 'p' }, caller: null, client: { userAgent: 'probe/1' }, reason: '参数错误：loginName（不能包含空字符）' });
    } finally {
      await app.close();
    }
  });
});
