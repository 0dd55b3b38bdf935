// The list-query module (issue 19): the scope every list is read in, the count that stops at
// EXACT_COUNT_LIMIT and estimates past it while the pager still reaches every page, and the
// statement that passes only the parameters it names. On both engines.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OperationContext } from '../../server/core/context';
import { EXACT_COUNT_LIMIT, orderBy, usedParameters } from '../../server/core/listQuery';
import { growWorld } from '../support/growWorld';
import { ADMIN_PASSWORD, catalogue, startServer, type TestServer } from './harness';

interface Page {
  records: Array<{ code: string; organizationCode: string }>;
  total: number;
  totalAtLeast?: number;
}

let server: TestServer;
let tadmin: string;
let operator: string;

beforeAll(async () => {
  server = await startServer();
  [tadmin, operator] = await Promise.all([server.login('tadmin'), server.login('operator')]);
});

afterAll(async () => {
  await server.close();
});

async function devicePage(token: string, param: object = {}, pageNumber = 1, orgCode?: string): Promise<Page> {
  const headers: Record<string, string> = { token };
  if (orgCode) headers.orgCode = orgCode;
  const { status, body } = await server.post(catalogue['device.page'].path, { pageParam: { pageNumber, pageSize: 20 }, param, sortParamList: [{ field: 'lastSeenTime', order: 'desc' }] }, headers);
  expect(status).toBe(200);
  expect(body.code).toBe('200');
  return body.data as Page;
}

const liveDevices = async (where: string, params: string[] = []) =>
  (await server.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM device WHERE deleted_at IS NULL AND ${where}`, params))[0].count;

describe('usedParameters', () => {
  it('keeps only the parameters a statement names, renumbered in the order they first appear', () => {
    expect(usedParameters('SELECT 1 FROM t WHERE a = $3 AND b = ANY($1::text[]) OR c = $3', ['x', 'unused', 7, 'also unused'])).toEqual({
      sql: 'SELECT 1 FROM t WHERE a = $1 AND b = ANY($2::text[]) OR c = $1',
      params: [7, 'x'],
    });
    expect(usedParameters('SELECT $10, $1', Array.from({ length: 10 }, (_, i) => i + 1))).toEqual({ sql: 'SELECT $1, $2', params: [10, 1] });
  });
});

describe('orderBy', () => {
  const sortedBy = (sortParamList: Array<{ field: string; order: 'asc' | 'desc' }>) => ({ page: { pageNumber: 1, pageSize: 20, sortParamList } }) as unknown as OperationContext<unknown>;
  const columns = { triggeredAt: 'a.triggered_at', level: 'a.level', usage: '(COALESCE(a.used, 0) / a.total)' };

  it('sorts by the asked columns, then by the fallback terms that add an order, and only by known columns', () => {
    expect(orderBy(sortedBy([]), columns, 'a.triggered_at DESC, a.id DESC')).toBe('a.triggered_at DESC, a.id DESC');
    expect(orderBy(sortedBy([{ field: 'triggeredAt', order: 'desc' }]), columns, 'a.triggered_at DESC, a.id DESC')).toBe('a.triggered_at DESC, a.id DESC');
    expect(orderBy(sortedBy([{ field: 'triggeredAt', order: 'asc' }]), columns, 'a.triggered_at DESC, a.id DESC')).toBe('a.triggered_at ASC, a.id DESC');
    expect(orderBy(sortedBy([{ field: 'level', order: 'asc' }, { field: 'nope', order: 'asc' }]), columns, 'a.triggered_at DESC NULLS LAST, a.id')).toBe('a.level ASC, a.triggered_at DESC NULLS LAST, a.id');
    expect(orderBy(sortedBy([{ field: 'usage', order: 'desc' }]), columns, '(COALESCE(a.used, 0) / a.total) ASC, a.id')).toBe('(COALESCE(a.used, 0) / a.total) DESC, a.id');
  });
});

describe('the scope of a list', () => {
  it('is every tenant at the platform root, the whole tenant at its root and the subtree below it', async () => {
    expect((await devicePage(operator)).total).toBe(await liveDevices('TRUE'));
    expect((await devicePage(tadmin)).total).toBe(await liveDevices("tenant_code = 'T0001'"));
    const project = await devicePage(tadmin, {}, 1, 'T0001P01');
    expect(project.total).toBe(await liveDevices("organization_code LIKE 'T0001P01%'"));
    expect(project.records.every((device) => device.organizationCode.startsWith('T0001P01'))).toBe(true);
    // A filter inside the scope narrows it; one outside it finds nothing.
    expect((await devicePage(tadmin, { organizationCode: 'T0001P01A01' })).total).toBe(await liveDevices("organization_code LIKE 'T0001P01A01%'"));
  });

  it('keeps an organisation in its tenant: moving one below another tenant is refused, so a row\'s tenant stays its organisation\'s', async () => {
    const admin = await server.login('admin', ADMIN_PASSWORD);
    const [project] = await server.db.query<{ name: string; type: number }>("SELECT name, type FROM organization WHERE code = 'T0001P01'");
    const move = (parentCode: string, organizationType: string) =>
      server.call('organization.modify', { organizationCode: 'T0001P01', organization: { organizationName: project.name, organizationType, parentCode } }, { token: admin });
    expect(await move('T0002', String(project.type))).toEqual({ code: '400', message: '不能将组织移到其他租户', data: null });
    // Nor may it become a tenant of its own (its devices belong to 杭州云联).
    expect(await move('P0001', '2')).toEqual({ code: '400', message: '不能将组织移到其他租户', data: null });
    const [after] = await server.db.query<{ parent_code: string }>("SELECT parent_code FROM organization WHERE code = 'T0001P01'");
    expect(after.parent_code).toBe('T0001');
  });
});

describe('a list longer than the exact count', () => {
  beforeAll(async () => {
    const present = await liveDevices("tenant_code = 'T0001'");
    await growWorld(server.db, { device: EXACT_COUNT_LIMIT + 500 - present });
  }, 120_000);

  it('counts up to the limit, estimates past it and still pages to any row', async () => {
    const live = await liveDevices("tenant_code = 'T0001'");
    expect(live).toBeGreaterThan(EXACT_COUNT_LIMIT);
    const first = await devicePage(tadmin);
    expect(first.totalAtLeast).toBe(EXACT_COUNT_LIMIT);
    expect(first.total).toBeGreaterThan(EXACT_COUNT_LIMIT);
    expect(first.records).toHaveLength(20);
    // The last page of the real list (past what was counted exactly) has its rows, and the total
    // never hides the page the caller stands on.
    const lastPage = Math.ceil(live / 20);
    const last = await devicePage(tadmin, {}, lastPage);
    expect(last.records).toHaveLength(live - (lastPage - 1) * 20);
    expect(last.total).toBeGreaterThanOrEqual(live);
    // Pages do not overlap or skip: page 300 and 301 follow one another in the list's order.
    const [p300, p301] = await Promise.all([devicePage(tadmin, {}, 300), devicePage(tadmin, {}, 301)]);
    const codes = new Set([...p300.records, ...p301.records].map((device) => device.code));
    expect(codes.size).toBe(40);
    // Found longer than the limit, the same list is not counted again for a while (paging through
    // it, or fifty people reading it): only its page is read.
    const statements: string[] = [];
    const query = server.db.query.bind(server.db);
    const spy = vi.spyOn(server.db, 'query').mockImplementation((sql, params) => {
      statements.push(sql);
      return query(sql, params);
    });
    try {
      expect((await devicePage(tadmin, {}, 2)).totalAtLeast).toBe(EXACT_COUNT_LIMIT);
    } finally {
      spy.mockRestore();
    }
    expect(statements.filter((sql) => /count\(\*\)|EXPLAIN/.test(sql))).toEqual([]);
    expect(statements.some((sql) => sql.includes('FROM device'))).toBe(true);
    // A filter that leaves fewer rows than the limit is counted exactly again.
    const online = await liveDevices("tenant_code = 'T0001' AND online_state = 'inactive'");
    const filtered = await devicePage(tadmin, { onlineState: 'inactive' });
    if (online <= EXACT_COUNT_LIMIT) {
      expect(filtered.totalAtLeast).toBeUndefined();
      expect(filtered.total).toBe(online);
    }
  });
});
