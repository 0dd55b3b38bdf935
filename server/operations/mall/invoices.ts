import type { Queryable } from '../../db/database';
import { documentCode, requireState } from '../../domain/cards';
import { INVOICE_STATE, INVOICE_TYPES, MALL_ORDER_ACTIONS, MALL_ORDER_STATE_LABEL, MAX_INVOICE_TITLES, moneyOf, yuan, fenOf } from '../../domain/mall';
import type { EntityExtension } from '../../entities/operations';
import { fail } from '../../http/envelope';
import { isPlatformStaff } from '../../core/access';
import { BY_TENANT } from '../../core/scope';
import { enumOf, enumParam, keywordParam, objectOf, optionalPlainText, schemaOf } from '../../core/params';
import { isoOrNull } from '../../core/values';
import { Conditions, containing, pageOf, type Listing } from '../../core/listQuery';
import { defineOperation } from '../../core/operation';
import type { OperationContext } from '../../core/context';
import { lockedState, conflictOnClash } from '../../core/conflicts';
import { buyingTenant, idParam, invoiceCodeParam, loginNameOf, orderCodeParam, orderScope, requireFinanceReader } from './access';
import { closeOverdueOrders, findOrder } from './orders';

/**
 * 我的发票: a tenant's invoice titles (company, tax number, bank, address) and the invoices it
 * applies for on its paid orders — one per order (a rejected application may be made again) —
 * with what has been invoiced and what may still be.
 */

const INVOICE_STATE_LABEL: Readonly<Record<string, string>> = { applied: '已申请', issued: '已开票', rejected: '已驳回' };
/** What an invoice of a mall order is for. */
const INVOICE_CONTENT = '物联网设备及服务费';

// ── titles ───────────────────────────────────────────────────────────────────────────────────────

interface TitleRow {
  id: number;
  tenant_code: string;
  name: string;
  tax_no: string;
  bank_name: string;
  bank_account: string;
  address: string;
  phone: string;
  created_by: string;
  created_at: Date;
  updated_at: Date;
  invoice_count: number;
}

function titleRecord(row: TitleRow) {
  return {
    id: row.id,
    name: row.name,
    taxNo: row.tax_no,
    bankName: row.bank_name,
    bankAccount: row.bank_account,
    address: row.address,
    phone: row.phone,
    // a special invoice (专票) needs the bank and the registered address and phone
    complete: Boolean(row.bank_name && row.bank_account && row.address && row.phone),
    label: `${row.name}（${row.tax_no}）`,
    invoiceCount: row.invoice_count,
    createdBy: row.created_by,
    createTime: isoOrNull(row.created_at),
    updateTime: isoOrNull(row.updated_at),
  };
}
export type InvoiceTitleRecord = ReturnType<typeof titleRecord>;

const TITLE_COLUMNS = `t.id, t.tenant_code, t.name, t.tax_no, t.bank_name, t.bank_account, t.address, t.phone, t.created_by, t.created_at, t.updated_at,
  (SELECT count(*)::int FROM invoice v WHERE v.title_id = t.id) AS invoice_count`;

async function findTitle(db: Queryable, tenantCode: string, id: number): Promise<InvoiceTitleRecord> {
  const [row] = await db.query<TitleRow>(`SELECT ${TITLE_COLUMNS} FROM invoice_title t WHERE t.id = $1 AND t.tenant_code = $2`, [id, tenantCode]);
  if (!row) throw fail.notFound('发票抬头不存在');
  return titleRecord(row);
}

/** Spaces of a bank account as one: 6222 0212  0000 → 6222 0212 0000. */
const bankAccountOf = (value: unknown): string => String(value ?? '').replace(/\s+/g, ' ').trim();

/**
 * 发票抬头 is served from its entity definition (schemas/entities/mall/invoiceTitle.json, issue 25):
 * what stays here is the buyer's tenant as the scope (platform staff keep none), the limit of titles,
 * the bank account's spaces, "complete", the label, the invoices counted, and the delete kept while an
 * application waits.
 */
export const invoiceTitleExtension: EntityExtension = {
  tenants: async (context, operation) => {
    if (operation === 'page') {
      requireFinanceReader(context);
      // The platform keeps no titles of its own.
      if (isPlatformStaff(context)) return [];
    }
    return [await buyingTenant(context)];
  },
  columns: { invoiceCount: { sql: 'SELECT count(*)::int FROM invoice v WHERE v.title_id = t.id', schema: { type: 'number' } } },
  computed: {
    schema: { complete: { type: 'boolean' }, label: { type: 'string' } },
    of: (record) => ({
      // a special invoice (专票) needs the bank and the registered address and phone
      complete: Boolean(record.bankName && record.bankAccount && record.address && record.phone),
      label: `${String(record.name)}（${String(record.taxNo)}）`,
    }),
  },
  omit: ['tenantCode', 'tenantName'],
  beforeWrite: async ({ db, values, current, tenantCode }) => {
    if (current === null) {
      // One tenant's titles are counted and added in its queue: saves at the same time cannot pass the limit together.
      await db.query('SELECT code FROM organization WHERE code = $1 FOR UPDATE', [tenantCode]);
      const [{ n }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM invoice_title WHERE tenant_code = $1', [tenantCode]);
      if (n >= MAX_INVOICE_TITLES) throw fail.conflict(`最多保存 ${MAX_INVOICE_TITLES} 个发票抬头`);
    }
    return { bankAccount: bankAccountOf(values.bankAccount) };
  },
  // A title an application is still waiting on stays until the platform has dealt with it.
  beforeDelete: async ({ db, current }) => {
    const [waiting] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM invoice WHERE title_id = $1 AND state = 'applied'`, [Number(current.id)]);
    if (waiting.n > 0) throw fail.conflict(`该抬头有 ${waiting.n} 张发票正在开具，不能删除`);
  },
};

// ── invoices ─────────────────────────────────────────────────────────────────────────────────────

interface InvoiceRow {
  id: number;
  code: string;
  tenant_code: string;
  tenant_name: string | null;
  organization_code: string;
  order_code: string;
  order_state: string;
  title_id: number | null;
  invoice_type: string;
  title_name: string;
  tax_no: string;
  bank_name: string;
  bank_account: string;
  title_address: string;
  title_phone: string;
  amount: string;
  content: string;
  email: string;
  remark: string;
  state: string;
  invoice_no: string | null;
  issued_at: Date | null;
  reject_reason: string | null;
  applied_by: string;
  created_at: Date;
  goods_summary: string | null;
}

function invoiceRecord(row: InvoiceRow) {
  return {
    id: row.id,
    code: row.code,
    tenantCode: row.tenant_code,
    tenantName: row.tenant_name ?? '',
    orderCode: row.order_code,
    orderState: row.order_state,
    goodsSummary: row.goods_summary ?? '',
    titleId: row.title_id,
    invoiceType: row.invoice_type,
    titleName: row.title_name,
    taxNo: row.tax_no,
    bankName: row.bank_name,
    bankAccount: row.bank_account,
    titleAddress: row.title_address,
    titlePhone: row.title_phone,
    amount: moneyOf(row.amount),
    content: row.content,
    email: row.email,
    remark: row.remark,
    state: row.state,
    stateName: INVOICE_STATE_LABEL[row.state] ?? row.state,
    invoiceNo: row.invoice_no ?? '',
    issueTime: isoOrNull(row.issued_at),
    rejectReason: row.reject_reason ?? '',
    appliedBy: row.applied_by,
    applyTime: isoOrNull(row.created_at),
  };
}
export type InvoiceRecord = ReturnType<typeof invoiceRecord>;

const INVOICES: Listing<InvoiceRow, InvoiceRecord> = {
  from: 'invoice v JOIN mall_order o ON o.code = v.order_code LEFT JOIN organization t ON t.code = v.tenant_code',
  // Every filter and sort reads the invoice alone (its order always exists).
  narrowFrom: 'invoice v',
  key: 'v.id',
  columns: `v.id, v.code, v.tenant_code, t.name AS tenant_name, v.organization_code, v.order_code, o.state AS order_state, v.title_id, v.invoice_type, v.title_name, v.tax_no,
    v.bank_name, v.bank_account, v.title_address, v.title_phone, v.amount, v.content, v.email, v.remark, v.state, v.invoice_no, v.issued_at, v.reject_reason, v.applied_by,
    v.created_at, (SELECT string_agg(i.goods_name || ' ×' || i.quantity, '，' ORDER BY i.id) FROM mall_order_item i WHERE i.order_code = v.order_code) AS goods_summary`,
  sorts: { code: 'v.code', applyTime: 'v.created_at', amount: 'v.amount', issueTime: 'v.issued_at' },
  fallback: 'v.created_at DESC, v.id DESC',
  record: invoiceRecord,
};

async function invoiceScope(context: OperationContext<unknown>): Promise<Conditions> {
  requireFinanceReader(context);
  return new Conditions().scope(await orderScope(context), 'v', BY_TENANT);
}

async function findInvoice(context: OperationContext<unknown>, code: string): Promise<InvoiceRecord> {
  const where = (await invoiceScope(context)).add('v.code = $?', code);
  const [row] = await context.db.query<InvoiceRow>(`SELECT ${INVOICES.columns} FROM ${INVOICES.from} WHERE ${where.sql}`, where.params);
  if (!row) throw fail.notFound('发票不存在');
  return invoiceRecord(row);
}

/** The paid orders within reach that hold no invoice yet (applied for or issued). */
const INVOICEABLE = `o.state = ANY($2::text[]) AND o.pay_amount > 0
  AND NOT EXISTS (SELECT 1 FROM invoice v WHERE v.order_code = o.code AND v.state <> 'rejected')`;

const MAIL_PATTERN = '^([A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,})?$';

export const invoiceOperations = [
  defineOperation('invoice.page', {
    paramSchema: objectOf({ keyword: keywordParam, state: enumParam(Object.values(INVOICE_STATE)), invoiceType: enumParam([...INVOICE_TYPES]) }),
    handler: async (context) => {
      const filter = context.param;
      const where = (await invoiceScope(context))
        .when(filter.keyword?.trim(), '(v.code ILIKE $? OR v.order_code ILIKE $? OR v.title_name ILIKE $? OR COALESCE(v.invoice_no, \'\') ILIKE $?)', (v) => containing(String(v)))
        .when(filter.state, 'v.state = $?')
        .when(filter.invoiceType, 'v.invoice_type = $?');
      return pageOf(context, INVOICES, where);
    },
  }),

  defineOperation('invoice.detail', {
    paramSchema: objectOf({ code: invoiceCodeParam }, ['code']),
    handler: async (context) => findInvoice(context, context.param.code),
  }),

  // 开票管理信息: what has been invoiced, what is being, what may still be, and the orders that may.
  defineOperation('invoice.manageInfo', {
    handler: async (context) => {
      requireFinanceReader(context);
      await closeOverdueOrders(context.db, context.now);
      const scope = (await orderScope(context)).organizationCodes;
      const [sums] = await context.db.query<{ issued: string; issued_count: number; applied: string; applied_count: number; rejected_count: number }>(
        `SELECT COALESCE(sum(amount) FILTER (WHERE state = 'issued'), 0) AS issued, count(*) FILTER (WHERE state = 'issued')::int AS issued_count,
                COALESCE(sum(amount) FILTER (WHERE state = 'applied'), 0) AS applied, count(*) FILTER (WHERE state = 'applied')::int AS applied_count,
                count(*) FILTER (WHERE state = 'rejected')::int AS rejected_count
           FROM invoice WHERE organization_code = ANY($1::text[])`,
        [scope],
      );
      const orders = await context.db.query<{ code: string; pay_amount: string; paid_at: Date; state: string; goods_summary: string | null }>(
        `SELECT o.code, o.pay_amount, o.paid_at, o.state,
                (SELECT string_agg(i.goods_name || ' ×' || i.quantity, '，' ORDER BY i.id) FROM mall_order_item i WHERE i.order_code = o.code) AS goods_summary
           FROM mall_order o WHERE o.organization_code = ANY($1::text[]) AND ${INVOICEABLE} ORDER BY o.paid_at DESC, o.id DESC`,
        [scope, [...MALL_ORDER_ACTIONS.applyInvoice]],
      );
      const invoiceableFen = orders.reduce((sum, order) => sum + fenOf(order.pay_amount), 0);
      return {
        invoicedAmount: moneyOf(sums.issued),
        invoicedCount: sums.issued_count,
        applyingAmount: moneyOf(sums.applied),
        applyingCount: sums.applied_count,
        rejectedCount: sums.rejected_count,
        invoiceableAmount: yuan(invoiceableFen),
        invoiceableCount: orders.length,
        // the apply form's choices
        records: orders.map((order) => ({
          code: order.code,
          payAmount: moneyOf(order.pay_amount),
          payTime: isoOrNull(order.paid_at),
          state: order.state,
          goodsSummary: order.goods_summary ?? '',
          label: `${order.code}（¥${moneyOf(order.pay_amount)}，${order.goods_summary ?? ''}）`,
        })),
      };
    },
  }),

  // Once per paid order, for its paid amount; the title is copied in as it stands.
  defineOperation('invoice.apply', {
    paramSchema: objectOf(
      {
        orderCode: orderCodeParam,
        titleId: idParam,
        invoiceType: enumOf(INVOICE_TYPES),
        email: schemaOf<string>({ type: 'string', maxLength: 64, pattern: MAIL_PATTERN }),
        remark: optionalPlainText(200),
      },
      ['orderCode', 'titleId', 'invoiceType'],
    ),
    handler: async (context) => {
      const tenantCode = await buyingTenant(context);
      const { orderCode, titleId, invoiceType } = context.param;
      const order = await findOrder(context, orderCode);
      requireState(order.state, MALL_ORDER_ACTIONS.applyInvoice, MALL_ORDER_STATE_LABEL, '申请开票');
      const title = await findTitle(context.db, tenantCode, titleId);
      if (invoiceType === 'special' && !title.complete) throw fail.conflict('开具增值税专用发票需要抬头的开户行、银行账号、注册地址和电话，请先完善抬头');
      if (order.payAmount <= 0) throw fail.conflict('该订单实付金额为 0，无需开票');
      const code = await context.db.transaction(async (tx) => {
        // The order locked as it is now: a cancellation (or another application) at the same time comes before or after this one, whole.
        requireState(await lockedState(tx, 'mall_order', order.code, '订单不存在'), MALL_ORDER_ACTIONS.applyInvoice, MALL_ORDER_STATE_LABEL, '申请开票');
        // The title stays while this application is made: a deletion at the same time waits and then sees it waiting.
        const [titled] = await tx.query('SELECT 1 FROM invoice_title WHERE id = $1 FOR SHARE', [title.id]);
        if (!titled) throw fail.notFound('发票抬头不存在');
        const [held] = await tx.query<{ code: string }>(`SELECT code FROM invoice WHERE order_code = $1 AND state <> 'rejected'`, [order.code]);
        if (held) throw fail.conflict(`该订单已申请开票（${held.code}），不能重复申请`);
        const [{ id }] = await tx.query<{ id: string | number }>(`SELECT nextval(pg_get_serial_sequence('invoice', 'id')) AS id`);
        const invoiceCode = documentCode('FP', context.now, Number(id), context.config.timeZone);
        await conflictOnClash(
          () =>
            tx.query(
              `INSERT INTO invoice (id, code, tenant_code, organization_code, order_code, title_id, invoice_type, title_name, tax_no, bank_name, bank_account, title_address,
                                    title_phone, amount, content, email, remark, state, applied_by, created_at, updated_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $20)`,
              [Number(id), invoiceCode, order.tenantCode, order.organizationCode, order.code, title.id, invoiceType, title.name, title.taxNo, title.bankName, title.bankAccount,
                title.address, title.phone, order.payAmount, INVOICE_CONTENT, context.param.email ?? '', context.param.remark?.trim() ?? '', INVOICE_STATE.applied,
                loginNameOf(context), context.now],
            ),
          { unique: '该订单已申请开票，不能重复申请' },
        );
        return invoiceCode;
      });
      return findInvoice(context, code);
    },
  }),

  // The apply form's choices: the tenant's titles, the most recently changed first.
  defineOperation('invoice.title.list', {
    handler: async (context) => {
      const tenantCode = await buyingTenant(context);
      const rows = await context.db.query<TitleRow>(`SELECT ${TITLE_COLUMNS} FROM invoice_title t WHERE t.tenant_code = $1 ORDER BY t.updated_at DESC, t.id DESC`, [tenantCode]);
      return rows.map(titleRecord);
    },
  }),
];
