import type { ColumnValue, Row, SeedData } from '../db/bulk';
import { businessDay } from '../domain/businessTime';
import { DEMO_TEMPLATES, checkFormData, type FormKind, type FormValues, type TemplateField } from '../domain/formTemplates';
import { DEMO_ACCOUNTS } from './accounts';
import type { Random } from './prng';
import { HOUR_MS, DAY_MS } from './clock';

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

const choose = (...labels: string[]) => labels.map((label, index) => ({ value: `o${index + 1}`, label }));
const without = (fields: readonly TemplateField[], ...keys: string[]) => fields.filter((field) => !keys.includes(field.key));

/** Every template, in id order: each tenant's main template of each kind first (ids 1–3 are 杭州云联's). */
function templatePlans(): TemplatePlan[] {
  const survey = DEMO_TEMPLATES[1];
  const construction = DEMO_TEMPLATES[2];
  const operations = DEMO_TEMPLATES[3];
  const pipeSurvey: TemplateField[] = [
    { key: 'pipeMaterial', label: '管材', type: 'select', required: true, options: choose('球墨铸铁', 'PE', '钢管', '镀锌管') },
    { key: 'pipeDiameter', label: '管径', type: 'select', required: true, options: choose('DN100', 'DN150', 'DN200', 'DN300') },
    { key: 'buriedDepth', label: '埋深', type: 'number', required: true, min: 0, max: 10, precision: 1, unit: 'm' },
    { key: 'valveCount', label: '阀门数量', type: 'number', min: 0, max: 50, precision: 0, unit: '个' },
    { key: 'surveyDate', label: '勘察日期', type: 'date', required: true },
    { key: 'conclusion', label: '改造建议', type: 'textarea', maxLength: 500 },
  ];
  const pressureAcceptance: TemplateField[] = [
    { key: 'pointName', label: '监测点名称', type: 'text', required: true, maxLength: 32 },
    { key: 'pressureMpa', label: '试压压力', type: 'number', required: true, min: 0, max: 2.5, precision: 2, unit: 'MPa' },
    { key: 'holdMinutes', label: '保压时间', type: 'number', required: true, min: 0, max: 120, precision: 0, unit: '分钟' },
    { key: 'leakCheck', label: '渗漏检查', type: 'select', required: true, options: choose('无渗漏', '轻微渗漏已处理') },
    { key: 'finishDate', label: '完工日期', type: 'date', required: true },
    { key: 'acceptPhotos', label: '验收照片', type: 'photo', maxCount: 6 },
  ];
  const batteryRecord: TemplateField[] = [
    { key: 'oldVoltage', label: '旧电池电压', type: 'number', required: true, min: 0, max: 5, precision: 2, unit: 'V' },
    { key: 'newBatchNo', label: '新电池批号', type: 'text', required: true, maxLength: 20 },
    { key: 'reportOk', label: '上报测试', type: 'select', required: true, options: choose('上报正常', '上报失败') },
    { key: 'replaceDate', label: '更换日期', type: 'date', required: true },
  ];
  const calibration: TemplateField[] = [
    { key: 'standardValue', label: '标准值', type: 'number', required: true, precision: 3 },
    { key: 'measuredValue', label: '实测值', type: 'number', required: true, precision: 3 },
    { key: 'calibrationDate', label: '校准日期', type: 'date', required: true },
  ];
  const pumpRoom: TemplateField[] = [
    { key: 'roomArea', label: '泵房面积', type: 'number', min: 0, max: 2000, precision: 1, unit: '㎡' },
    { key: 'ventilation', label: '通风条件', type: 'select', required: true, options: choose('良好', '一般', '差') },
  ];
  return [
    // 杭州云联: ids 1, 2, 3 are the templates most of its orders fill.
    {
      tenantCode: 'T0001',
      kind: 1,
      name: survey.name,
      description: survey.description,
      forOrders: true,
      versions: [
        { state: 'superseded', fields: without(survey.fields, 'risks', 'sitePhotos'), daysAgo: 240 },
        { state: 'published', fields: survey.fields, daysAgo: 60 },
      ],
    },
    { tenantCode: 'T0001', kind: 2, name: construction.name, description: construction.description, forOrders: true, versions: [{ state: 'published', fields: construction.fields, daysAgo: 200 }] },
    { tenantCode: 'T0001', kind: 3, name: operations.name, description: operations.description, forOrders: true, versions: [{ state: 'published', fields: operations.fields, daysAgo: 180 }] },
    {
      tenantCode: 'T0001',
      kind: 1,
      name: '管网改造前期勘察表',
      description: '老旧管网改造前的管材、管径与埋深勘察。',
      versions: [
        { state: 'published', fields: without(pipeSurvey, 'valveCount'), daysAgo: 90 },
        { state: 'draft', fields: pipeSurvey, daysAgo: 3 },
      ],
    },
    { tenantCode: 'T0001', kind: 1, name: '二次供水泵房勘察表', description: '二次供水泵房改造前勘察（编辑中）。', versions: [{ state: 'draft', fields: pumpRoom, daysAgo: 6 }] },
    {
      tenantCode: 'T0001',
      kind: 2,
      name: '压力监测点施工验收表',
      description: '压力监测点安装后的试压与验收记录。',
      versions: [
        { state: 'superseded', fields: without(pressureAcceptance, 'holdMinutes', 'acceptPhotos'), daysAgo: 150 },
        { state: 'published', fields: without(pressureAcceptance, 'acceptPhotos'), daysAgo: 40 },
        { state: 'draft', fields: pressureAcceptance, daysAgo: 2 },
      ],
    },
    { tenantCode: 'T0001', kind: 3, name: '电池更换记录表', description: '更换电池后的电压与上报测试记录。', versions: [{ state: 'published', fields: batteryRecord, daysAgo: 120 }] },
    { tenantCode: 'T0001', kind: 3, name: '季度校准记录表', description: '计量器具季度校准（编辑中）。', versions: [{ state: 'draft', fields: calibration, daysAgo: 1 }] },
    // 苏州智水.
    { tenantCode: 'T0002', kind: 1, name: '排水管网监测点勘察表', description: '排水管网液位、流量监测点的安装勘察。', forOrders: true, versions: [{ state: 'published', fields: survey.fields, daysAgo: 160 }] },
    {
      tenantCode: 'T0002',
      kind: 2,
      name: '液位计安装施工记录',
      description: '液位计安装完成后的施工记录。',
      forOrders: true,
      versions: [
        { state: 'published', fields: construction.fields, daysAgo: 130 },
        { state: 'draft', fields: [...construction.fields, { key: 'installHeight', label: '安装高度', type: 'number', min: 0, max: 20, precision: 2, unit: 'm' }], daysAgo: 4 },
      ],
    },
    { tenantCode: 'T0002', kind: 3, name: '泵站设备巡检运维表', description: '泵站设备的例行运维检查。', forOrders: true, versions: [{ state: 'published', fields: operations.fields, daysAgo: 110 }] },
    { tenantCode: 'T0002', kind: 1, name: '河道水质站勘察表', description: '河道水质自动站选址勘察（编辑中）。', versions: [{ state: 'draft', fields: without(survey.fields, 'wellDepth'), daysAgo: 8 }] },
  ];
}

/** Realistic values for the demo fields; any other field gets a generic one. */
const NUMBER_RANGES: Record<string, [number, number]> = {
  signalDbm: [-112, -72],
  wellDepth: [0.6, 1.8],
  batteryVoltage: [3.28, 3.68],
  initialReading: [0, 60],
};
const TEXT_SAMPLES: Record<string, readonly string[]> = {
  suggestion: ['建议表井内安装，天线引出井盖外侧。', '信号偏弱，建议采用外置高增益天线。', '井内易积水，安装前先做防水处理。'],
  remark: ['已完成安装调试并上电，平台确认上线。', '管件已紧固，打压无渗漏。', '现场恢复，包装垃圾已清运。'],
  finding: ['外观完好，读数正常。', '密封圈轻微老化，已更换。', '电池电压偏低，建议下次更换。'],
};

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

const AUDIT_OPINIONS = ['勘察记录完整，同意按建议方案安装。', '数据齐全，通过。', '照片与记录一致，通过。'];
const REJECT_REASONS = ['信号强度未在安装位置实测，请补测。', '缺少表井深度数据，请补充。'];

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
