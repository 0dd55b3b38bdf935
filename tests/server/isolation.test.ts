// The tenant isolation matrix (#9), generated from the catalogue and the page schemas, so a new
// operation or screen is covered by default: a tenant admin of 苏州智水 (badmin, T0002) gets
// nothing of 杭州云联's (T0001) — not by orgCode header, not in any list, and not by the ids that
// 杭州云联's own screens pass to their detail, form and row operations.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveTemplate } from '../../renderers/schema/template';
import { IMPLEMENTED_OPERATION_NAMES, OPERATIONS } from '../../server/operations';
import { DEVICE_CODE_PATTERN } from '../../server/core/deviceScope';
import { catalogue, startServer, type TestServer } from './harness';
import { composedPageMap } from '../../scripts/pageSources';

interface Envelope {
  code: string;
  data: unknown;
}
type Json = Record<string, unknown>;

const MENUS = JSON.parse(readFileSync(new URL('../../schemas/menus.json', import.meta.url), 'utf8')) as { menus: MenuEntry[] };
interface MenuEntry {
  url?: string;
  view?: string;
  children?: MenuEntry[];
}

/** Every page schema by view reference (`device/all`, `feedback/list?feedbackType=app`), composed as the console does. */
function pages(): Map<string, Json> {
  return composedPageMap() as Map<string, Json>;
}

/** Route path → view, from the menu and the fixed layout pages. */
function routes(): Map<string, string> {
  const found = new Map<string, string>([['/gateway/details', 'gateway/details']]);
  const walk = (entries: readonly MenuEntry[]) =>
    entries.forEach((entry) => {
      if (entry.url && entry.view) found.set(entry.url, entry.view);
      walk(entry.children ?? []);
    });
  walk(MENUS.menus);
  return found;
}

const TENANT_A = 'T0001';
/** What marks a record as 杭州云联's: its organisation codes and its name. */
const TENANT_A_MARK = new RegExp(`"${TENANT_A}[A-Z0-9]*"|杭州云联`);
const implemented = new Set(IMPLEMENTED_OPERATION_NAMES);

let server: TestServer;
let tadmin: string;
let badmin: string;

beforeAll(async () => {
  server = await startServer();
  [tadmin, badmin] = await Promise.all([server.login('tadmin'), server.login('badmin')]);
});
afterAll(() => server.close());

/** Calls any operation with a plain param (a page operation asks for its first 100 records). */
async function call(name: string, param: unknown, token: string, orgCode?: string): Promise<Envelope> {
  const entry = catalogue[name];
  const body = entry.kind === 'page' ? { pageParam: { pageNumber: 1, pageSize: 100 }, param, sortParamList: [] } : { param };
  if (entry.kind === 'get') {
    const query = new URLSearchParams(Object.entries((param ?? {}) as Json).map(([key, value]) => [key, String(value)]));
    const response = await server.app.inject({ method: 'GET', url: `/api${entry.path}?${query}`, headers: { token, ...(orgCode ? { orgcode: orgCode } : {}) } });
    return response.json<Envelope>();
  }
  const response = await server.app.inject({ method: 'POST', url: `/api${entry.path}`, headers: { token, ...(orgCode ? { orgcode: orgCode } : {}) }, payload: body });
  const type = String(response.headers['content-type'] ?? '');
  // A file answer (an export) carries data: give it a success code so the caller can judge.
  return type.includes('json') ? response.json<Envelope>() : { code: '200', data: response.body };
}

const recordsOf = (answer: Envelope): Json[] => {
  const data = answer.data as { records?: Json[] } | Json[] | null;
  return Array.isArray(data) ? data : (data?.records ?? []);
};

describe('tenant isolation matrix', () => {
  it('every operation refuses the other tenant\'s organisation in the orgCode header with "403"', async () => {
    const refusedOrBroken: string[] = [];
    for (const [name, entry] of Object.entries(catalogue)) {
      if ((entry.access ?? 'token') !== 'token') continue;
      const answer = await call(name, {}, badmin, TENANT_A);
      if (answer.code !== '403') refusedOrBroken.push(`${name} → ${answer.code}`);
    }
    expect(refusedOrBroken).toEqual([]);
  });

  it('no list, export or list-like call of the other tenant shows a record of 杭州云联', async () => {
    const leaks: string[] = [];
    let checked = 0;
    for (const [name, entry] of Object.entries(catalogue)) {
      const listLike = entry.kind === 'page' || entry.kind === 'blob' || /\.(list|tree|statistics)$|Statistics|overview|Trend/.test(name);
      if (!listLike || !implemented.has(name) || (entry.access ?? 'token') !== 'token' || name.startsWith('dev.')) continue;
      const answer = await call(name, {}, badmin);
      if (answer.code !== '200') continue;
      checked += 1;
      // The shared catalogue (organisation types, dictionaries) names no tenant; a tenant's data does.
      if (TENANT_A_MARK.test(JSON.stringify(answer.data))) leaks.push(name);
    }
    expect(checked).toBeGreaterThan(10);
    expect(leaks).toEqual([]);
  });

  it('the ids 杭州云联\'s screens pass on (detail, form, row operations) answer nothing to 苏州智水', async () => {
    const byView = pages();
    const byRoute = routes();
    const leaks: string[] = [];
    let probes = 0;
    for (const [view, page] of byView) {
      if (page.kind !== 'list' || typeof page.operation !== 'string') continue;
      const own = await call(page.operation, {}, tadmin);
      const record = recordsOf(own)[0];
      if (own.code !== '200' || !record) continue;
      // A record 苏州智水 lists too is shared (the platform's catalogue), not 杭州云联's.
      const rowKey = String(page.rowKey ?? 'id');
      const theirs = await call(page.operation, {}, badmin);
      if (recordsOf(theirs).some((other) => other[rowKey] === record[rowKey])) continue;

      const targets: Array<{ operation: string; param: unknown; from: string }> = [];
      for (const action of (page.rowActions as Json[] | undefined) ?? []) {
        if (action.type === 'call' && typeof action.operation === 'string') {
          targets.push({ operation: action.operation, param: resolveTemplate(action.param ?? {}, { record, params: {} }), from: `${view} ${String(action.label)}` });
        }
        let targetView: string | undefined;
        let params: Json = {};
        if (action.type === 'openForm') {
          targetView = String(action.page);
          params = resolveTemplate(action.params ?? {}, { record, params: {} }) as Json;
        } else if (action.type === 'navigate') {
          const to = new URL(String(resolveTemplate(action.to, { record, params: {} })), 'http://console');
          targetView = byRoute.get(to.pathname);
          params = { ...Object.fromEntries(to.searchParams), ...((resolveTemplate(action.query ?? {}, { record, params: {} }) as Json) ?? {}) };
        }
        const target = targetView ? byView.get(targetView) : undefined;
        const load = target?.load as { operation: string; param?: unknown } | undefined;
        if (load && Object.keys(params).length) targets.push({ operation: load.operation, param: resolveTemplate(load.param ?? {}, { params }), from: `${view} ${String(action.label)} → ${targetView}` });
      }
      for (const target of targets) {
        if (!implemented.has(target.operation)) continue;
        probes += 1;
        const answer = await call(target.operation, target.param, badmin);
        if (answer.code === '200') leaks.push(`${target.from}: ${target.operation} ${JSON.stringify(target.param)}`);
      }
    }
    expect(probes).toBeGreaterThan(5);
    expect(leaks).toEqual([]);
  });

  /**
   * Issue 18 (finding 1's pattern): a reference the caller passes in — an ICCID, a device or
   * gateway code, a user id, an organisation code, a product code — is another tenant's or exists
   * nowhere: the answer must be the same for both (same code, same message, same count), so no
   * operation takes the other tenant's value into the caller's rows nor tells that it exists.
   * Generated from the param schemas of every implemented operation; the other fields of the
   * param are filled with 杭州云联's own values or the simplest value their schema accepts.
   */
  it('every reference a param takes answers the other tenant\'s value as it answers one that exists nowhere', async () => {
    const one = async <T>(sql: string, params: unknown[] = []): Promise<T> => {
      const [row] = await server.db.query<T>(sql, params as never[]);
      if (!row) throw new Error(`no row for ${sql}`);
      return row;
    };
    const device = (tenant: string) =>
      one<{ code: string }>(
        `SELECT d.code FROM device d JOIN product p ON p.code = d.product_code WHERE d.tenant_code = $1 AND d.deleted_at IS NULL AND p.node_type <> 'sub' AND d.iccid IS NULL ORDER BY d.id LIMIT 1`,
        [tenant],
      );
    const gateway = (tenant: string) =>
      one<{ code: string }>(`SELECT d.code FROM device d JOIN product p ON p.code = d.product_code WHERE d.tenant_code = $1 AND d.deleted_at IS NULL AND p.node_type = 'gateway' ORDER BY d.id LIMIT 1`, [tenant]);
    const card = (tenant: string) =>
      one<{ iccid: string }>(
        `SELECT s.iccid FROM sim_card s WHERE s.tenant_code = $1 AND s.state IN ('testing', 'active') AND s.device_code IS NULL AND NOT EXISTS (SELECT 1 FROM device d WHERE d.iccid = s.iccid) ORDER BY s.id LIMIT 1`,
        [tenant],
      );
    const staff = (tenant: string) =>
      one<{ id: number }>(
        `SELECT u.id FROM app_user u WHERE u.status = 1 AND EXISTS (SELECT 1 FROM user_role r WHERE r.user_id = u.id AND r.role_code = 'ROLE_TENANT_REPAIR')
            AND EXISTS (SELECT 1 FROM user_organization o WHERE o.user_id = u.id AND o.organization_code LIKE $1 || '%') ORDER BY u.id LIMIT 1`,
        [tenant],
      );
    const product = async (tenant: string) =>
      (await server.db.query<{ code: string }>('SELECT code FROM product WHERE tenant_code = $1 ORDER BY id LIMIT 1', [tenant]))[0]?.code ??
      (await one<{ code: string }>('SELECT code FROM product WHERE tenant_code IS NULL ORDER BY id LIMIT 1')).code;
    const [ownDevice, theirDevice, ownGateway, theirGateway, ownCard, theirCard, ownStaff, theirStaff, ownProduct, theirProduct] = await Promise.all([
      device('T0001'),
      device('T0002'),
      gateway('T0001'),
      gateway('T0002'),
      card('T0001'),
      card('T0002'),
      staff('T0001'),
      staff('T0002'),
      product('T0001'),
      product('T0002'),
    ]);
    interface Reference {
      own: string | number;
      theirs: string | number;
      nowhere: string | number;
    }
    const REFERENCES: Record<string, Reference> = {
      iccid: { own: ownCard.iccid, theirs: theirCard.iccid, nowhere: '89860321123456789012' },
      deviceCode: { own: ownDevice.code, theirs: theirDevice.code, nowhere: 'ZZZZZZ000000' },
      gatewayCode: { own: ownGateway.code, theirs: theirGateway.code, nowhere: 'ZZZZZZ000001' },
      userId: { own: ownStaff.id, theirs: theirStaff.id, nowhere: 1_999_999 },
      assigneeId: { own: ownStaff.id, theirs: theirStaff.id, nowhere: 1_999_999 },
      organizationCode: { own: 'T0001P01', theirs: 'T0002P01', nowhere: 'T0999P01' },
      productCode: { own: ownProduct, theirs: theirProduct, nowhere: 'PRD-NOWHERE' },
    };
    const PLURALS: Record<string, string> = { iccids: 'iccid', deviceCodes: 'deviceCode', userIds: 'userId', organizationCodes: 'organizationCode' };
    const referenceOf = (key: string): string | undefined => (REFERENCES[key] ? key : PLURALS[key]);
    // Only when a product is another tenant's own does 苏州智水's product say anything.
    const probed = Object.keys(REFERENCES).filter((key) => key !== 'productCode' || theirProduct !== ownProduct);

    const SAMPLES = ['x', '1', 'A1', 'ABCD', '2026-01-01', '2026-01-01 00:00:00', '13800000000', 'a@b.cn', '1,2', '0.01', 'https://example.com/a.png', 'CODE_1', 'ZZZZZZ000000'];
    /** The simplest value `schema` accepts (a guess for a pattern; a refusal only costs a probe). */
    const sample = (schema: Json | undefined): unknown => {
      if (!schema) return 'x';
      if ('const' in schema) return schema.const;
      if (Array.isArray(schema.enum)) return schema.enum[0];
      if (Array.isArray(schema.anyOf)) return sample(schema.anyOf[0] as Json);
      if (Array.isArray(schema.oneOf)) return sample(schema.oneOf[0] as Json);
      const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
      if (type === 'integer' || type === 'number') return Math.max(Number(schema.minimum ?? 1), 1);
      if (type === 'boolean') return false;
      if (type === 'array') return Array.from({ length: Number(schema.minItems ?? 0) }, () => sample(schema.items as Json));
      if (type === 'object') return build(schema, () => undefined);
      const min = Number(schema.minLength ?? 1);
      const max = Number(schema.maxLength ?? 64);
      const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern) : null;
      // A device's own code or a card of 杭州云联's where the field takes one (device.card.bind's `code`).
      if (pattern && schema.pattern === DEVICE_CODE_PATTERN) return ownDevice.code;
      if (pattern && pattern.test(ownCard.iccid) && !pattern.test('1')) return ownCard.iccid;
      return SAMPLES.find((value) => value.length >= min && value.length <= max && (!pattern || pattern.test(value))) ?? 'x'.repeat(Math.max(min, 1));
    };
    /** An object of `schema`: its required fields and every reference it takes, a reference's value from `pick`. */
    const build = (schema: Json, pick: (key: string, reference: string) => unknown): Json => {
      const properties = (schema.properties ?? {}) as Record<string, Json>;
      const required = new Set((schema.required as string[] | undefined) ?? []);
      const value: Json = {};
      for (const [key, property] of Object.entries(properties)) {
        const reference = referenceOf(key);
        const picked = reference ? pick(key, reference) : undefined;
        if (picked !== undefined) value[key] = PLURALS[key] ? [picked] : picked;
        else if (reference) value[key] = PLURALS[key] ? [REFERENCES[reference].own] : REFERENCES[reference].own;
        else if (required.has(key)) value[key] = property.type === 'object' ? build(property, pick) : sample(property);
        else if (property.type === 'object' && hasReference(property)) value[key] = build(property, pick);
      }
      return value;
    };
    const hasReference = (schema: Json): boolean => Object.entries((schema.properties ?? {}) as Record<string, Json>).some(([key, property]) => Boolean(referenceOf(key)) || (property.type === 'object' && hasReference(property)));
    const referencesIn = (schema: Json, path: string[] = []): string[][] =>
      Object.entries((schema.properties ?? {}) as Record<string, Json>).flatMap(([key, property]) =>
        referenceOf(key) ? [[...path, key]] : property.type === 'object' ? referencesIn(property, [...path, key]) : [],
      );
    const summary = (answer: Envelope & { message?: string }, value: string | number) => {
      const data = answer.data as { total?: number } | null;
      return { code: answer.code, message: String(answer.message ?? '').split(String(value)).join('…'), total: data && typeof data === 'object' && 'total' in data ? data.total : undefined };
    };

    const SKIP = /^(auth\.|dev\.|user\.password\.|verification\.|wechat\.)/;
    const differ: string[] = [];
    const reached: string[] = [];
    for (const operation of OPERATIONS) {
      const entry = catalogue[operation.name];
      if (!entry || (entry.access ?? 'token') !== 'token' || entry.kind === 'upload' || SKIP.test(operation.name)) continue;
      for (const path of referencesIn(operation.paramSchema as Json)) {
        const field = path[path.length - 1];
        const reference = referenceOf(field)!;
        if (!probed.includes(reference)) continue;
        const target = REFERENCES[reference];
        const paramWith = (value: string | number) => build(operation.paramSchema as Json, (key) => (key === field ? value : undefined));
        const nowhere = summary(await call(operation.name, paramWith(target.nowhere), tadmin), target.nowhere);
        const theirs = summary(await call(operation.name, paramWith(target.theirs), tadmin), target.theirs);
        if (nowhere.code !== '400') reached.push(`${operation.name}.${path.join('.')}`);
        if (JSON.stringify(nowhere) !== JSON.stringify(theirs)) differ.push(`${operation.name} ${path.join('.')}: 不存在 → ${JSON.stringify(nowhere)}，他人的 → ${JSON.stringify(theirs)}`);
      }
    }
    expect(reached.length).toBeGreaterThan(40);
    expect(differ).toEqual([]);
  });
});
