import type { ColumnValue, Row, SeedData } from '../db/bulk';
import { businessDay } from '../domain/businessTime';
import { DEMO_TEMPLATES, checkFormData, type FormKind, type FormValues, type TemplateField } from '../domain/formTemplates';
import { DEMO_ACCOUNTS } from './accounts';
import type { Random } from './prng';
import { HOUR_MS, DAY_MS } from './clock';
import { readFixture } from './fixtures/fixture';

/**
 * The demo world's dynamic form templates (issue 6): for each tenant and each kind (survey,
 * construction, operations) published templates — one already in its second version, one being
 * revised (published with a newer draft) — and drafts never published. The survey, construction
 * and maintenance orders the work seed gave a form to are pointed at their tenant's published
 * template of their kind, at the version that was current when the order was made; orders under
 * way or done carry values filled in against that version (checked as the server checks them).
 * Concluded surveys wait for the administrator's audit; some were approved, a few sent back.
 */

const userId = (loginName: string): number => DEMO_ACCOUNTS.findIndex((account) => account.loginName === loginName) + 1;
const ADMINS: Record<string, string> = { T0001: 'tadmin', T0002: 'badmin' };
const KIND_OF_TYPE: Record<string, FormKind> = { exploration: 1, construction: 2, maintenance: 3 };

interface VersionPlan {
  state: 'draft' | 'published' | 'superseded';
  fields: readonly TemplateField[];
  /** Days before now it was last edited (and, unless a draft, published). */
  daysAgo: number;
}

interface TemplatePlan {
  tenantCode: string;
  kind: FormKind;
  name: string;
  description: string;
  versions: VersionPlan[];
  /** Orders of this tenant and kind are given this template (the first such plan is the default). */
  forOrders?: boolean;
}

/** A field set's field as formTemplates.json writes it: a choice's options by their labels. */
type FixtureField = Omit<TemplateField, 'options'> & { options?: readonly string[] };
/** A version's fields: a set (the demo templates' survey, construction, operations, or one of FIELD_SETS), less some, plus others. */
interface FieldsOf {
  set: string;
  without?: readonly string[];
  plus?: readonly FixtureField[];
}

/** formTemplates.json. */
const { FIELD_SETS, TEMPLATE_PLANS, NUMBER_RANGES, TEXT_SAMPLES, AUDIT_OPINIONS, REJECT_REASONS } = readFixture<{
  FIELD_SETS: Record<string, readonly FixtureField[]>;
  /** Every template, in id order: each tenant's main template of each kind first (ids 1–3 are 杭州云联's); without a name, a demo template's. */
  TEMPLATE_PLANS: ReadonlyArray<Omit<TemplatePlan, 'name' | 'description' | 'versions'> & { name?: string; description?: string; versions: Array<Omit<VersionPlan, 'fields'> & { fields: FieldsOf }> }>;
  /** Realistic values for the demo fields; any other field gets a generic one. */
  NUMBER_RANGES: Record<string, [number, number]>;
  TEXT_SAMPLES: Record<string, readonly string[]>;
  AUDIT_OPINIONS: readonly string[];
  REJECT_REASONS: readonly string[];
}>('formTemplates');

const DEMO_SETS: Record<string, FormKind> = { survey: 1, construction: 2, operations: 3 };

/** A fixture field as a template field: its options valued o1, o2, … in order. */
const templateField = (field: FixtureField): TemplateField =>
  Object.fromEntries(Object.entries(field).map(([key, value]) => [key, key === 'options' ? (value as string[]).map((label, index) => ({ value: `o${index + 1}`, label })) : value])) as unknown as TemplateField;
const fieldSets = new Map(Object.entries(FIELD_SETS).map(([name, fields]) => [name, fields.map(templateField)]));

function fieldsOf({ set, without, plus }: FieldsOf): readonly TemplateField[] {
  const fields = set in DEMO_SETS ? DEMO_TEMPLATES[DEMO_SETS[set]].fields : fieldSets.get(set)!;
  const kept = without ? fields.filter((field) => !without.includes(field.key)) : fields;
  return plus ? [...kept, ...plus.map(templateField)] : kept;
}

/** Every template, in id order, its versions' fields spelled out. */
function templatePlans(): TemplatePlan[] {
  return TEMPLATE_PLANS.map(({ name, description, versions, ...plan }) => ({
    ...plan,
    name: name ?? DEMO_TEMPLATES[plan.kind].name,
    description: description ?? DEMO_TEMPLATES[plan.kind].description,
    versions: versions.map((version) => ({ ...version, fields: fieldsOf(version.fields) })),
  }));
}

function sampleValue(random: Random, field: TemplateField, day: string): unknown {
  switch (field.type) {
    case 'number': {
      const [low, high] = NUMBER_RANGES[field.key] ?? [field.min ?? 0, field.max ?? 100];
      const factor = 10 ** (field.precision ?? 0);
      return Math.round((low + random.next() * (high - low)) * factor) / factor;
    }
    case 'select':
      return random.pick(field.options ?? []).value;
    case 'checkbox': {
      const options = field.options ?? [];
      const picked = options.filter(() => random.next() < 0.6);
      return (picked.length ? picked : options.slice(0, 1)).map((option) => option.value);
    }
    case 'date':
      return day;
    case 'text':
      return field.key === 'sealNumber' ? `QF${random.int(100000, 999999)}` : field.key === 'newBatchNo' ? `ER${random.int(2024, 2026)}${random.int(1000, 9999)}` : '现场已确认';
    case 'textarea':
      return random.pick(TEXT_SAMPLES[field.key] ?? ['现场情况正常。']);
    case 'photo':
      // No demo photo files exist: the optional photo fields stay empty.
      return undefined;
  }
}

/** A filled form: every required field and most optional ones, as the server would accept it. */
function filledForm(random: Random, fields: readonly TemplateField[], day: string): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    if (!field.required && random.next() < 0.3) continue;
    const value = sampleValue(random, field, day);
    if (value !== undefined) values[field.key] = value;
  }
  const checked = checkFormData(fields, values);
  if (!checked.ok) throw new Error(`seeded form does not pass its template: ${checked.problem}`);
  return checked.values;
}


/**
 * The template tables, and the work tables with their survey, construction and maintenance
 * orders pointed at the templates (and concluded surveys audited or waiting for audit).
 */
export function formTemplateTables(random: Random, now: Date, work: SeedData, timeZone: string): SeedData {
  const today = now.getTime();
  const plans = templatePlans();
  const templates: Row[] = [];
  const versions: Row[] = [];
  /** The version an order of a tenant and kind made at a time fills: [template id, version, fields]. */
  const forOrders = new Map<string, Array<{ id: number; version: number; from: number; fields: readonly TemplateField[] }>>();
  plans.forEach((plan, index) => {
    const id = index + 1;
    const admin = userId(ADMINS[plan.tenantCode]);
    const created = today - (plan.versions[0].daysAgo + random.int(1, 10)) * DAY_MS;
    const updated = today - plan.versions[plan.versions.length - 1].daysAgo * DAY_MS;
    templates.push({ id, tenant_code: plan.tenantCode, kind: plan.kind, name: plan.name, description: plan.description, creator_id: admin, created_at: new Date(created).toISOString(), updated_at: new Date(updated).toISOString() });
    plan.versions.forEach((version, at) => {
      const time = today - version.daysAgo * DAY_MS - random.int(1, 20) * HOUR_MS;
      versions.push({
        template_id: id,
        version: at + 1,
        state: version.state,
        fields: version.fields as unknown as ColumnValue,
        editor_id: admin,
        publisher_id: version.state === 'draft' ? null : admin,
        created_at: new Date(time - random.int(1, 48) * HOUR_MS).toISOString(),
        updated_at: new Date(time).toISOString(),
        published_at: version.state === 'draft' ? null : new Date(time).toISOString(),
      });
      if (plan.forOrders && version.state !== 'draft') {
        const key = `${plan.tenantCode}/${plan.kind}`;
        // The first version counts from the beginning: older orders were given it too.
        const list = forOrders.get(key) ?? [];
        list.push({ id, version: at + 1, from: at === 0 ? 0 : time, fields: version.fields });
        forOrders.set(key, list);
      }
    });
  });

  const orderTable = work.find((entry) => entry.table === 'work_order');
  const historyTable = work.find((entry) => entry.table === 'work_order_history');
  if (!orderTable || !historyTable) throw new Error('the work seed has no work orders');
  const history = [...historyTable.rows];
  let nextHistoryId = history.reduce((max, row) => Math.max(max, Number(row.id)), 0) + 1;
  const implement = userId('implement');
  const audits: Record<string, number> = {};

  const orders = orderTable.rows.map((original): Row => {
    const row: Row = { ...original, form_template_version: null };
    const kind = KIND_OF_TYPE[String(row.type)];
    if (!kind) return row;
    const state = String(row.state);
    if (row.form_template_id !== null) {
      const created = Date.parse(String(row.created_at));
      const candidates = forOrders.get(`${String(row.tenant_code)}/${kind}`) ?? [];
      const chosen = [...candidates].reverse().find((candidate) => candidate.from <= created) ?? candidates[0];
      row.form_template_id = chosen.id;
      row.form_template_version = chosen.version;
      const started = ['in_progress', 'completed', 'audited', 'rejected'].includes(state);
      const filled = started && (state !== 'in_progress' || random.next() < 0.5);
      // The business day of the visit, as a date field holds it.
      const day = businessDay(new Date(String(row.started_at ?? row.completed_at ?? row.created_at)), timeZone);
      row.form_data = filled ? (filledForm(random, chosen.fields, day) as ColumnValue) : null;
    } else {
      row.form_data = null;
    }
    // Concluded surveys go to the administrator's audit; some have been through it.
    if (row.type === 'exploration' && state === 'completed') {
      row.audit_state = 'pending';
      const completedAt = Date.parse(String(row.completed_at));
      const roll = random.next();
      const auditAt = Math.min(completedAt + random.int(2, 72) * HOUR_MS, today - HOUR_MS);
      const eligible = row.assignee_id !== implement && auditAt > completedAt;
      // Every eighth survey through the audit was sent back; most of the others approved.
      const seen = eligible ? (audits[String(row.tenant_code)] = (audits[String(row.tenant_code)] ?? 0) + 1) : 0;
      const rejected = seen % 8 === 2;
      if (eligible && (rejected || roll < 0.6)) {
        const remark = rejected ? random.pick(REJECT_REASONS) : random.pick(AUDIT_OPINIONS);
        Object.assign(row, {
          state: rejected ? 'rejected' : 'audited',
          audit_state: rejected ? 'rejected' : 'approved',
          audit_opinion: remark,
          reject_reason: rejected ? remark : '',
          audited_at: rejected ? null : new Date(auditAt).toISOString(),
          updated_at: new Date(auditAt).toISOString(),
        });
        history.push({
          id: nextHistoryId++,
          order_id: row.id,
          action: rejected ? 'reject' : 'audit',
          from_state: 'completed',
          to_state: rejected ? 'rejected' : 'audited',
          operator_id: userId(ADMINS[String(row.tenant_code)]),
          remark,
          created_at: new Date(auditAt).toISOString(),
        });
      }
    }
    return row;
  });

  return [
    { table: 'form_template', rows: templates },
    { table: 'form_template_version', rows: versions },
    ...work.map((entry) => (entry === orderTable ? { table: entry.table, rows: orders } : entry === historyTable ? { table: entry.table, rows: history } : entry)),
  ];
}
