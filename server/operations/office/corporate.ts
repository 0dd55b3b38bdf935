import type { Queryable } from '../../db/database';
import { STATE_REFUSES_ACTION, workCode } from '../../domain/workOrders';
import { fail } from '../../http/envelope';
import { holdsButton } from '../../security/caller';
import { workingOrganizations } from '../../core/access';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { enumOf, objectOf, text, type ParamOf, optionalPlainText, plainText, timeRange, optionalEnumOf, parseRange, workCodeSchema, orNull } from '../../core/params';
import { Conditions, containing, pageOf, type Listing } from '../../core/listQuery';
import { organizationScope } from '../../core/scope';
import { tenantOf } from '../../domain/organizations';
import { cents, numberOrNull, quantity } from './scope';
import { isoOrEmpty } from '../../core/values';

/**
 * 我的办公: corporate office requests (用章申请, 费用报销, 采购申请, 出差申请, 用车申请). An employee
 * files a request as a draft, edits it and submits it; the tenant admin approves or rejects it
 * with a reason; a rejected request is edited and submitted again. Only drafts and rejected
 * requests are edited or deleted, and only by the applicant. 企业办公 lists the caller's own
 * requests; 办公审核 lists the submitted requests of the working organisations, those awaiting
 * audit first. Every step is written to the request's history.
 */

export const OFFICE_REQUEST_TYPES = ['seal', 'expense', 'purchase', 'travel', 'vehicle'] as const;
export const OFFICE_REQUEST_STATES = ['draft', 'submitted', 'approved', 'rejected'] as const;
const SEAL_TYPES = ['official', 'contract', 'finance', 'legal'];
/** States in which the applicant may still edit, delete or submit a request. */
const EDITABLE: readonly string[] = ['draft', 'rejected'];
/** 办公 requests: BG + date + id. */
export const OFFICE_CODE_PREFIX = 'BG';
/** The button that makes someone an auditor (the 办公审核 menu's 通过). */
const AUDIT_BUTTON = 'office.audit.approve';

interface RequestRow {
  id: number;
  code: string;
  tenant_code: string;
  organization_code: string;
  organization_name: string;
  applicant_id: number;
  applicant_name: string;
  applicant_phone: string | null;
  type: string;
  title: string;
  content: string;
  seal_type: string | null;
  amount: string | null;
  destination: string;
  start_at: Date | null;
  end_at: Date | null;
  state: string;
  submitted_at: Date | null;
  auditor_id: number | null;
  auditor_name: string | null;
  audited_at: Date | null;
  audit_opinion: string;
  created_at: Date;
  updated_at: Date;
}

const FROM = `office_request r
  JOIN organization org ON org.code = r.organization_code
  JOIN app_user ap ON ap.id = r.applicant_id
  LEFT JOIN app_user au ON au.id = r.auditor_id`;
const SELECT = `SELECT r.*, org.name AS organization_name, ap.user_name AS applicant_name, ap.phone AS applicant_phone, au.user_name AS auditor_name FROM ${FROM}`;

function requestRecord(row: RequestRow, userId: number) {
  const own = row.applicant_id === userId;
  const editable = own && EDITABLE.includes(row.state);
  return {
    id: row.id,
    code: row.code,
    type: row.type,
    title: row.title,
    content: row.content,
    sealType: row.seal_type ?? '',
    amount: numberOrNull(row.amount),
    destination: row.destination,
    startTime: isoOrEmpty(row.start_at),
    endTime: isoOrEmpty(row.end_at),
    period: row.start_at && row.end_at ? [isoOrEmpty(row.start_at), isoOrEmpty(row.end_at)] : null,
    state: row.state,
    organizationCode: row.organization_code,
    organizationName: row.organization_name,
    applicantName: row.applicant_name,
    applicantPhone: row.applicant_phone ?? '',
    submitTime: isoOrEmpty(row.submitted_at),
    auditorName: row.auditor_name ?? '',
    auditTime: isoOrEmpty(row.audited_at),
    auditOpinion: row.audit_opinion,
    createTime: isoOrEmpty(row.created_at),
    updateTime: isoOrEmpty(row.updated_at),
    canModify: editable,
    canDelete: editable,
    canSubmit: editable,
    canAudit: row.state === 'submitted' && !own,
  };
}

const filterSchema = objectOf({
  keyword: text(64),
  type: optionalEnumOf(OFFICE_REQUEST_TYPES),
  state: optionalEnumOf(OFFICE_REQUEST_STATES),
  createTime: timeRange,
});
type RequestFilter = ParamOf<typeof filterSchema>;

/**
 * The requests with their organisation, applicant and auditor: the count and the page's choice of
 * rows read office_request alone, and its applicant when the keyword names them.
 */
function requestListing(userId: number, fallback: string): Listing<RequestRow, ReturnType<typeof requestRecord>> {
  return {
    from: FROM,
    narrowFrom: (needed) => (/\bap\./.test(needed) ? 'office_request r JOIN app_user ap ON ap.id = r.applicant_id' : 'office_request r'),
    key: 'r.id',
    columns: 'r.*, org.name AS organization_name, ap.user_name AS applicant_name, ap.phone AS applicant_phone, au.user_name AS auditor_name',
    sorts: { code: 'r.code', createTime: 'r.created_at', submitTime: 'r.submitted_at', auditTime: 'r.audited_at', amount: 'r.amount', state: 'r.state' },
    fallback,
    record: (row) => requestRecord(row, userId),
  };
}

/** Narrows `where` (the own requests, or the audit scope) by the filter. */
function filtered(where: Conditions, filter: RequestFilter, timeZone: string): Conditions {
  where.when(filter.keyword?.trim(), '(r.code ILIKE $? OR r.title ILIKE $? OR ap.user_name ILIKE $?)', (keyword) => containing(String(keyword)));
  where.when(filter.type, 'r.type = $?');
  where.when(filter.state, 'r.state = $?');
  if (filter.createTime) {
    const [start, end] = parseRange(filter.createTime, 'createTime', timeZone);
    where.add('r.created_at >= $?', start).add('r.created_at <= $?', end);
  }
  return where;
}

function pageRequests(context: OperationContext<RequestFilter>, base: Conditions, fallback: string) {
  return pageOf(context, requestListing(callerOf(context).userId, fallback), filtered(base, context.param, context.config.timeZone));
}

/** The caller's own request `code` ("404" 申请不存在 for anyone else's). */
async function ownRequest(db: Queryable, userId: number, code: string, lock = false): Promise<RequestRow> {
  if (lock) await db.query('SELECT 1 FROM office_request WHERE code = $1 AND applicant_id = $2 FOR UPDATE', [code, userId]);
  const [row] = await db.query<RequestRow>(`${SELECT} WHERE r.code = $1 AND r.applicant_id = $2`, [code, userId]);
  if (!row) throw fail.notFound('申请不存在');
  return row;
}

/** A submitted (or audited) request of the working organisations, as an auditor sees it ("404" otherwise). */
async function auditedRequest(db: Queryable, scope: readonly string[], code: string, lock = false): Promise<RequestRow> {
  if (lock) await db.query("SELECT 1 FROM office_request WHERE code = $1 AND organization_code = ANY($2::text[]) AND state <> 'draft' FOR UPDATE", [code, scope]);
  const [row] = await db.query<RequestRow>(`${SELECT} WHERE r.code = $1 AND r.organization_code = ANY($2::text[]) AND r.state <> 'draft'`, [code, scope]);
  if (!row) throw fail.notFound('申请不存在');
  return row;
}

/** The history of a request, oldest first. */
async function historyOf(db: Queryable, requestId: number) {
  const rows = await db.query<{ id: number; action: string; from_state: string | null; to_state: string; operator_name: string | null; remark: string; created_at: Date }>(
    `SELECT h.id, h.action, h.from_state, h.to_state, u.user_name AS operator_name, h.remark, h.created_at
       FROM office_request_history h LEFT JOIN app_user u ON u.id = h.operator_id
      WHERE h.request_id = $1 ORDER BY h.created_at, h.id`,
    [requestId],
  );
  return rows.map((row) => ({
    id: row.id,
    action: row.action,
    fromState: row.from_state ?? '',
    toState: row.to_state,
    operatorName: row.operator_name ?? '',
    remark: row.remark,
    time: row.created_at.toISOString(),
  }));
}

async function writeHistory(db: Queryable, entry: { requestId: number; action: string; from: string | null; to: string; operatorId: number; remark?: string; at: Date }) {
  await db.query('INSERT INTO office_request_history (request_id, action, from_state, to_state, operator_id, remark, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
    entry.requestId,
    entry.action,
    entry.from,
    entry.to,
    entry.operatorId,
    entry.remark ?? '',
    entry.at,
  ]);
}

const requestFields = objectOf(
  {
    type: enumOf(OFFICE_REQUEST_TYPES),
    title: plainText(64),
    content: optionalPlainText(2000),
    sealType: optionalEnumOf(SEAL_TYPES),
    amount: orNull(quantity(10_000_000, true)),
    destination: optionalPlainText(64),
    period: orNull(timeRange),
  },
  ['type', 'title'],
);
/** A request as the console saves it; what its kind does not need is dropped (kindColumns). */
export type RequestFields = ParamOf<typeof requestFields>;

/** The columns of a request's kind: what the kind needs is required, what it does not is dropped. */
function kindColumns(fields: RequestFields, timeZone: string) {
  const columns = { seal_type: null as string | null, amount: null as number | null, destination: '', start_at: null as Date | null, end_at: null as Date | null };
  if (fields.type === 'seal') {
    if (!fields.sealType) throw fail.badRequest('请选择印章类型');
    columns.seal_type = fields.sealType;
  }
  if (fields.type === 'expense' || fields.type === 'purchase') {
    if (fields.amount === undefined || fields.amount === null) throw fail.badRequest('请填写金额');
    columns.amount = cents(fields.amount);
    if (columns.amount <= 0) throw fail.badRequest('参数错误：amount');
  }
  if (fields.type === 'travel' || fields.type === 'vehicle') {
    if (!fields.period) throw fail.badRequest('请选择起止时间');
    if (!fields.destination?.trim()) throw fail.badRequest('请填写目的地');
    [columns.start_at, columns.end_at] = parseRange(fields.period, 'period', timeZone);
    columns.destination = fields.destination.trim();
  }
  return columns;
}

/** Where the caller's requests belong: the caller's first organisation and its tenant. */
async function applicantPlace(context: OperationContext<unknown>): Promise<{ organizationCode: string; tenantCode: string }> {
  const home = callerOf(context).organizationCodes[0];
  if (!home) throw fail.forbidden();
  return { organizationCode: home, tenantCode: (await tenantOf(context.db, home)) ?? home };
}

const codeParam = objectOf({ code: workCodeSchema }, ['code']);

/** Takes an applicant's step on the own request `code`: allowed only while it is a draft or rejected. */
async function ownEditableRequest(tx: Queryable, context: OperationContext<{ code: string }>, verb: '修改' | '删除' | '提交'): Promise<RequestRow> {
  const row = await ownRequest(tx, callerOf(context).userId, context.param.code, true);
  if (!EDITABLE.includes(row.state)) throw fail.conflict(`申请已提交或已审核，不能${verb}`);
  return row;
}

/** The auditor's decision on a submitted request. */
async function decide(context: OperationContext<{ code: string }>, approved: boolean, opinion: string) {
  const caller = callerOf(context);
  const scope = await workingOrganizations(context);
  await context.db.transaction(async (tx) => {
    const row = await auditedRequest(tx, scope, context.param.code, true);
    if (row.applicant_id === caller.userId) throw fail.forbidden('不能审核自己提交的申请');
    if (row.state !== 'submitted') throw fail.conflict(STATE_REFUSES_ACTION);
    const to = approved ? 'approved' : 'rejected';
    const decided = await tx.query<{ id: number }>(
      "UPDATE office_request SET state = $2, auditor_id = $3, audited_at = $4, audit_opinion = $5, updated_at = $4 WHERE id = $1 AND state = 'submitted' RETURNING id",
      [row.id, to, caller.userId, context.now, opinion.trim()],
    );
    if (decided.length === 0) throw fail.conflict(STATE_REFUSES_ACTION);
    await writeHistory(tx, { requestId: row.id, action: approved ? 'approve' : 'reject', from: row.state, to, operatorId: caller.userId, remark: opinion.trim(), at: context.now });
  });
  return null;
}

export const corporateOperations = [
  defineOperation('office.corporate.page', {
    paramSchema: filterSchema,
    handler: (context) => pageRequests(context, new Conditions().add('r.applicant_id = $?', callerOf(context).userId), 'r.created_at DESC, r.id DESC'),
  }),

  /** The applicant's own request, or one an auditor of its organisation may see (not a draft). */
  defineOperation('office.corporate.detail', {
    paramSchema: codeParam,
    handler: async (context) => {
      const caller = callerOf(context);
      const [own] = await context.db.query<RequestRow>(`${SELECT} WHERE r.code = $1 AND r.applicant_id = $2`, [context.param.code, caller.userId]);
      let row = own;
      if (!row) {
        if (!(await holdsButton(context.db, caller, AUDIT_BUTTON))) throw fail.notFound('申请不存在');
        row = await auditedRequest(context.db, await workingOrganizations(context), context.param.code);
      }
      return { ...requestRecord(row, caller.userId), history: await historyOf(context.db, row.id) };
    },
  }),

  defineOperation('office.corporate.insert', {
    paramSchema: objectOf({ request: requestFields }, ['request']),
    handler: async (context) => {
      const caller = callerOf(context);
      const fields = context.param.request;
      const columns = kindColumns(fields, context.config.timeZone);
      const place = await applicantPlace(context);
      return context.db.transaction(async (tx) => {
        const [{ id }] = await tx.query<{ id: number }>(`SELECT nextval(pg_get_serial_sequence('office_request', 'id'))::int AS id`);
        const code = workCode(OFFICE_CODE_PREFIX, id, context.now, context.config.timeZone);
        await tx.query(
          `INSERT INTO office_request (id, code, tenant_code, organization_code, applicant_id, type, title, content, seal_type, amount, destination, start_at, end_at,
                                       state, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'draft', $14, $14)`,
          [
            id,
            code,
            place.tenantCode,
            place.organizationCode,
            caller.userId,
            fields.type,
            fields.title.trim(),
            fields.content?.trim() ?? '',
            columns.seal_type,
            columns.amount,
            columns.destination,
            columns.start_at,
            columns.end_at,
            context.now,
          ],
        );
        await writeHistory(tx, { requestId: id, action: 'create', from: null, to: 'draft', operatorId: caller.userId, at: context.now });
        return { code };
      });
    },
  }),

  defineOperation('office.corporate.modify', {
    paramSchema: objectOf({ code: workCodeSchema, request: requestFields }, ['code', 'request']),
    handler: async (context) => {
      const fields = context.param.request;
      const columns = kindColumns(fields, context.config.timeZone);
      await context.db.transaction(async (tx) => {
        const row = await ownEditableRequest(tx, context, '修改');
        await tx.query(
          `UPDATE office_request SET type = $2, title = $3, content = $4, seal_type = $5, amount = $6, destination = $7, start_at = $8, end_at = $9, updated_at = $10
            WHERE id = $1`,
          [row.id, fields.type, fields.title.trim(), fields.content?.trim() ?? '', columns.seal_type, columns.amount, columns.destination, columns.start_at, columns.end_at, context.now],
        );
        await writeHistory(tx, { requestId: row.id, action: 'modify', from: row.state, to: row.state, operatorId: callerOf(context).userId, at: context.now });
      });
      return { code: context.param.code };
    },
  }),

  defineOperation('office.corporate.delete', {
    paramSchema: codeParam,
    handler: async (context) => {
      await context.db.transaction(async (tx) => {
        const row = await ownEditableRequest(tx, context, '删除');
        await tx.query('DELETE FROM office_request WHERE id = $1', [row.id]);
      });
      return null;
    },
  }),

  defineOperation('office.corporate.submit', {
    paramSchema: codeParam,
    handler: async (context) => {
      await context.db.transaction(async (tx) => {
        const row = await ownEditableRequest(tx, context, '提交');
        const submitted = await tx.query<{ id: number }>(
          "UPDATE office_request SET state = 'submitted', submitted_at = $2, auditor_id = NULL, audited_at = NULL, audit_opinion = '', updated_at = $2 WHERE id = $1 AND state = $3 RETURNING id",
          [row.id, context.now, row.state],
        );
        if (submitted.length === 0) throw fail.conflict('申请已提交或已审核，不能提交');
        await writeHistory(tx, { requestId: row.id, action: 'submit', from: row.state, to: 'submitted', operatorId: callerOf(context).userId, at: context.now });
      });
      return null;
    },
  }),

  /** The working organisations' requests in audit: those awaiting it first, then the newest. */
  defineOperation('office.audit.page', {
    paramSchema: filterSchema,
    handler: async (context) => {
      // Only auditors list other people's requests (the page is no button, the audit is).
      if (!(await holdsButton(context.db, callerOf(context), AUDIT_BUTTON))) throw fail.forbidden();
      // office_request.tenant_code is the tenant of its organisation (organisations stay in their tenant).
      return pageRequests(
        context,
        new Conditions().scope(await organizationScope(context), 'r', { tenant: 'tenant_code' }).add("r.state <> 'draft'"),
        "(r.state = 'submitted') DESC, r.submitted_at DESC, r.id DESC",
      );
    },
  }),

  defineOperation('office.audit.approve', {
    paramSchema: objectOf({ code: workCodeSchema, opinion: plainText(500) }, ['code', 'opinion']),
    handler: (context) => decide(context, true, context.param.opinion),
  }),

  defineOperation('office.audit.reject', {
    paramSchema: objectOf({ code: workCodeSchema, reason: plainText(500) }, ['code', 'reason']),
    handler: (context) => decide(context, false, context.param.reason),
  }),
];
