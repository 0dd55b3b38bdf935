import type { ColumnValue, Row, SeedData } from '../db/bulk';
import { DEFAULT_TENANT_SETTINGS, sameSetting } from '../domain/tenantSettings';
import { workCode } from '../domain/workOrders';
import { flattenOrganizations } from './organizations';
import type { Random } from './prng';
import type { UserTables } from './users';
import { HOUR_MS, DAY_MS, iso } from './clock';
import { drawnInt, filled, readFixture } from './fixtures/fixture';

/**
 * The office and catalogue areas' demo data (issue 6): the details of every seeded project area,
 * corporate office requests of both tenants' staff in every state with their history (the
 * tenant admins audit), platform and tenant text templates, a few changed tenant settings and
 * each tenant's store of spare parts and materials, some below their warning level.
 */

/** office.json: the office and catalogue areas' tables. */
interface OfficeFixture {
  SURNAMES: readonly string[];
  GIVEN: readonly string[];
  /** What the seeded areas are: kind, street address and a position near it. */
  AREAS: Record<string, { type: string; address: string; longitude: number; latitude: number; acreage: number }>;
  /** The places a tenant's requests name. */
  PLACES: Record<'T0001' | 'T0002', readonly string[]>;
  /** Each request type's drafts (the default: vehicle), see requestDraft. */
  REQUEST_DRAFTS: Record<string, ReadonlyArray<Record<string, DraftField>>>;
  APPROVALS: readonly string[];
  REJECTIONS: readonly string[];
  /** Text templates: the platform's (every tenant sees them) and each tenant's own. */
  TEMPLATES: ReadonlyArray<{ tenant: string | null; type: string; name: string; content: string; enabled?: boolean; remark?: string }>;
  /** The materials catalogue: name, specification, unit, unit price and the usual stock. */
  MATERIALS: Record<string, Array<[string, string, string, number, number]>>;
  TYPE_CODE: Record<string, string>;
  SUPPLIERS: Record<string, string[]>;
  LOCATIONS: Record<string, string[]>;
  /** The tenants' changed settings (jsonb values as they are), `daysAgo` they were set. */
  TENANT_SETTINGS: ReadonlyArray<{ tenant_code: string; key: string; value: ColumnValue; updated_by: string; daysAgo: number }>;
}

/**
 * A draft's field: text in which `{place}` is the request's place, `{hz:A|B}` A for the first
 * tenant and B otherwise, `{int:min:max}` a drawn number; a number; or [base, min, max], base plus
 * a drawn number.
 */
type DraftField = string | number | readonly [number, number, number];

const { SURNAMES, GIVEN, AREAS, PLACES, REQUEST_DRAFTS, APPROVALS, REJECTIONS, TEMPLATES, MATERIALS, TYPE_CODE, SUPPLIERS, LOCATIONS, TENANT_SETTINGS } =
  readFixture<OfficeFixture>('office');

interface Person {
  id: number;
  loginName: string;
  organizationCode: string;
  tenantCode: string;
}

/** Request texts by type: title, content and what the type needs. */
interface RequestDraft {
  title: string;
  content: string;
  sealType?: string;
  amount?: number;
  destination?: string;
  hours?: number;
}

function requestDraft(random: Random, type: string, tenantCode: string): RequestDraft {
  const hz = tenantCode === 'T0001';
  const place = random.pick(PLACES[hz ? 'T0001' : 'T0002']);
  const text = (value: string) => filled(value, { place: () => place, hz: (choices) => choices.split('|')[hz ? 0 : 1], int: drawnInt(random) });
  // Every draft of the type is written (drawing its numbers) before one is picked.
  const drafts = (REQUEST_DRAFTS[type] ?? REQUEST_DRAFTS.vehicle).map((draft) =>
    Object.fromEntries(Object.entries(draft).map(([key, value]) => [key, typeof value === 'string' ? text(value) : typeof value === 'number' ? value : value[0] + random.int(value[1], value[2])])),
  );
  return random.pick(drafts) as unknown as RequestDraft;
}


/** The states of one applicant's requests: every state for the demo accounts, a mix for the rest. */
function statesFor(random: Random, loginName: string, isAdmin: boolean): string[] {
  if (isAdmin) return ['draft', 'submitted', 'draft', 'submitted'];
  const demo = ['tuser', 'repair', 'patrol', 'implement', 'sz01', 'sz05'].includes(loginName);
  const states = demo ? ['draft', 'submitted', 'submitted', 'approved', 'approved', 'rejected', 'approved', 'rejected'] : [];
  const extra = demo ? 4 : random.int(4, 8);
  for (let n = 0; n < extra; n += 1) {
    const roll = random.next();
    states.push(roll < 0.12 ? 'draft' : roll < 0.32 ? 'submitted' : roll < 0.82 ? 'approved' : 'rejected');
  }
  return states;
}

function officeRequests(random: Random, now: number, people: readonly Person[], admins: Readonly<Record<string, number>>, timeZone: string) {
  const requests: Row[] = [];
  const history: Row[] = [];
  const types = ['seal', 'expense', 'purchase', 'travel', 'vehicle'];
  const drafts: Array<{ person: Person; state: string; type: string; createdAt: number }> = [];
  for (const person of people) {
    const isAdmin = admins[person.tenantCode] === person.id;
    statesFor(random, person.loginName, isAdmin).forEach((state, index) => {
      const open = state === 'draft' || state === 'submitted';
      const ageDays = open ? 0.5 + random.next() * 12 : 3 + random.next() * 150;
      drafts.push({ person, state, type: types[(index + person.id) % types.length], createdAt: now - ageDays * DAY_MS });
    });
  }
  // Ids follow creation time.
  drafts.sort((a, b) => a.createdAt - b.createdAt);
  drafts.forEach((draft, index) => {
    const id = index + 1;
    const { person, state, type } = draft;
    const text = requestDraft(random, type, person.tenantCode);
    const auditor = admins[person.tenantCode];
    const steps: Array<{ action: string; from: string | null; to: string; by: number; remark: string; at: number }> = [];
    let at = draft.createdAt;
    const step = (action: string, from: string | null, to: string, by: number, remark = '', gapHours: [number, number] = [0.2, 20]) => {
      at = Math.min(at + (gapHours[0] + random.next() * (gapHours[1] - gapHours[0])) * HOUR_MS, now - 0.1 * HOUR_MS);
      steps.push({ action, from, to, by, remark, at });
    };
    steps.push({ action: 'create', from: null, to: 'draft', by: person.id, remark: '', at });
    if (state === 'draft' && random.next() < 0.4) step('modify', 'draft', 'draft', person.id);
    let submittedAt: number | null = null;
    let auditedAt: number | null = null;
    let opinion = '';
    if (state !== 'draft') {
      // Some approved requests were sent back once before.
      if (state === 'approved' && random.next() < 0.25) {
        step('submit', 'draft', 'submitted', person.id);
        step('reject', 'submitted', 'rejected', auditor, random.pick(REJECTIONS), [1, 30]);
        step('modify', 'rejected', 'rejected', person.id, '', [1, 24]);
        step('submit', 'rejected', 'submitted', person.id, '', [0.1, 2]);
      } else step('submit', 'draft', 'submitted', person.id);
      submittedAt = at;
      if (state === 'approved' || state === 'rejected') {
        opinion = state === 'approved' ? random.pick(APPROVALS) : random.pick(REJECTIONS);
        step(state === 'approved' ? 'approve' : 'reject', 'submitted', state, auditor, opinion, [1, 40]);
        auditedAt = at;
      }
    }
    const start = text.hours ? draft.createdAt + (2 + random.int(0, 10)) * DAY_MS + random.int(8, 10) * HOUR_MS : null;
    requests.push({
      id,
      code: workCode('BG', id, new Date(draft.createdAt), timeZone),
      tenant_code: person.tenantCode,
      organization_code: person.organizationCode,
      applicant_id: person.id,
      type,
      title: text.title,
      content: text.content,
      seal_type: type === 'seal' ? (text.sealType ?? 'official') : null,
      amount: text.amount ?? null,
      destination: text.destination ?? '',
      start_at: start === null ? null : iso(start),
      end_at: start === null || !text.hours ? null : iso(start + text.hours * HOUR_MS),
      state,
      submitted_at: submittedAt === null ? null : iso(submittedAt),
      auditor_id: auditedAt === null ? null : auditor,
      audited_at: auditedAt === null ? null : iso(auditedAt),
      audit_opinion: opinion,
      created_at: iso(draft.createdAt),
      updated_at: iso(at),
    });
    for (const entry of steps) {
      history.push({ request_id: id, action: entry.action, from_state: entry.from, to_state: entry.to, operator_id: entry.by, remark: entry.remark, created_at: iso(entry.at) });
    }
  });
  return { requests, history: history.map((row, index) => ({ id: index + 1, ...row })) };
}

/** Templates: the platform's (every tenant sees them) and each tenant's own. */
function templates(now: number, creators: Readonly<Record<string, string>>): Row[] {
  return TEMPLATES.map((row, index) => {
    const created = now - (200 - index * 7) * DAY_MS;
    return {
      id: index + 1,
      tenant_code: row.tenant,
      type: row.type,
      name: row.name,
      content: row.content,
      enabled: row.enabled ?? true,
      remark: row.remark ?? '',
      created_by: row.tenant ? creators[row.tenant] : 'admin',
      created_at: iso(created),
      updated_at: iso(created + (index % 3) * 9 * DAY_MS),
    };
  });
}

function materials(random: Random, now: number, tenantCode: string, share: number, creator: string): Row[] {
  const rows: Row[] = [];
  for (const [type, items] of Object.entries(MATERIALS)) {
    items.forEach(([name, specification, unit, price, usual], index) => {
      // The second tenant keeps a smaller store.
      if (random.next() > share) return;
      const warning = Math.max(1, Math.round(usual * 0.25));
      const low = random.next() < 0.18;
      const stock = low ? random.int(0, warning) : random.int(warning + 1, usual * 2);
      const created = now - random.int(60, 400) * DAY_MS;
      rows.push({
        tenant_code: tenantCode,
        code: `WL-${TYPE_CODE[type]}-${String(index + 1).padStart(3, '0')}`,
        name,
        type,
        specification,
        unit,
        stock,
        warning_level: warning,
        unit_price: price,
        supplier: random.pick(SUPPLIERS[tenantCode]),
        location: random.pick(LOCATIONS[tenantCode]),
        remark: low ? '低于预警，已提采购申请' : '',
        created_by: creator,
        created_at: iso(created),
        updated_at: iso(Math.min(now - HOUR_MS, created + random.int(1, 50) * DAY_MS)),
      });
    });
  }
  return rows;
}

export function officeTables(random: Random, today: Date, users: UserTables, timeZone: string): SeedData {
  const now = today.getTime();
  const areaCodes = new Set(flattenOrganizations().map((org) => org.code));
  const areas: Row[] = Object.entries(AREAS)
    .filter(([code]) => areaCodes.has(code))
    .map(([code, area], index) => ({
      organization_code: code,
      area_type: area.type,
      manager_name: random.pick(SURNAMES) + random.pick(GIVEN),
      manager_phone: `13${random.int(5, 9)}${String(random.int(0, 99_999_999)).padStart(8, '0')}`,
      address: area.address,
      longitude: area.longitude,
      latitude: area.latitude,
      acreage: area.acreage,
      remark: index % 4 === 0 ? '24 小时有人值守' : '',
      created_by: code.startsWith('T0001') ? 'tadmin' : 'badmin',
      created_at: iso(now - 420 * DAY_MS),
      updated_at: iso(now - (30 + index * 5) * DAY_MS),
    }));

  const homeOf = new Map(users.userOrganizations.map((row) => [Number(row.user_id), String(row.organization_code)]));
  const people: Person[] = users.users
    .map((user) => ({ id: Number(user.id), loginName: String(user.login_name), organizationCode: homeOf.get(Number(user.id)) ?? '' }))
    .filter((user) => /^T000[12]/.test(user.organizationCode) && user.loginName !== 'newbie')
    .map((user) => ({ id: user.id, loginName: user.loginName, organizationCode: user.organizationCode, tenantCode: user.organizationCode.slice(0, 5) }));
  const idOf = (loginName: string) => Number(users.users.find((user) => user.login_name === loginName)?.id);
  const admins = { T0001: idOf('tadmin'), T0002: idOf('badmin') };
  const office = officeRequests(random, now, people, admins, timeZone);

  // jsonb values as they are (the loader passes each row as JSON).
  const settings: Row[] = TENANT_SETTINGS.map(({ daysAgo, ...row }) => ({ ...row, updated_at: iso(now - daysAgo * DAY_MS) })).filter((row) => !sameSetting(row.value, DEFAULT_TENANT_SETTINGS[row.key as keyof typeof DEFAULT_TENANT_SETTINGS]));

  const store = [...materials(random, now, 'T0001', 1, 'tadmin'), ...materials(random, now, 'T0002', 0.75, 'badmin')].map((row, index) => ({ id: index + 1, ...row }));

  return [
    { table: 'project_area', rows: areas },
    { table: 'office_request', rows: office.requests },
    { table: 'office_request_history', rows: office.history },
    { table: 'text_template', rows: templates(now, { T0001: 'tadmin', T0002: 'badmin' }) },
    { table: 'tenant_setting', rows: settings },
    { table: 'material', rows: store },
  ];
}
