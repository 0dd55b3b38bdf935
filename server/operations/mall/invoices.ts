import type { Queryable } from '../../db/database';
import { documentCode, requireState } from '../../domain/cards';
import { INVOICE_STATE, INVOICE_TYPES, MALL_ORDER_ACTIONS, MALL_ORDER_STATE_LABEL, MAX_INVOICE_TITLES, moneyOf, yuan, fenOf } from '../../domain/mall';
import type { EntityExtension } from '../../entities/operations';
import { fail } from '../../http/envelope';
import { isPlatformStaff } from '../../core/access';
import { BY_TENANT } from '../../core/scope';
import { enumOf, enumParam, keywordParam, objectOf, optionalPlainText, schemaOf } from '../../core/params';
import { isoOrNull } from '../../core/values';
import { Conditions } from '../../core/listQuery';
import { column, contains, derived, equals, listing, textColumn, type ItemOf } from '../../core/listing';
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

/** What a finance reader sees of the invoices: those of the orders within reach. */
async function invoiceScope(where: Conditions, context: OperationContext<unknown>): Promise<void> {
  requireFinanceReader(context);
  where.scope(await orderScope(context), 'v', BY_TENANT);
}

/**
 * The invoices within reach (the finance readers' orders scope), newest first: the count and the
 * page's choice of rows read the invoice alone (every filter and sort is of it; its order always
 * exists), the order's state, the buyer's name and the goods are joined for the page's rows.
 */
const INVOICES = listing({
  from: 'invoice v JOIN mall_order o ON o.code = v.order_code LEFT JOIN organization t ON t.code = v.tenant_code',
  narrowFrom: 'invoice v',
  key: 'v.id',
  scope: invoiceScope,
  filters: {
    keyword: contains(['v.code', 'v.order_code', 'v.title_name', "COALESCE(v.invoice_no, '')"], keywordParam, { trim: true }),
    state: equals('v.state', enumParam(Object.values(INVOICE_STATE))),
    invoiceType: equals('v.invoice_type', enumParam([...INVOICE_TYPES])),
  },
  columns: {
    id: column<number>('v.id'),
    code: column<string>('v.code'),
    tenantCode: column<string>('v.tenant_code'),
    tenantName: textColumn('t.name'),
    orderCode: column<string>('v.order_code'),
    orderState: column<string>('o.state'),
    goodsSummary: textColumn("(SELECT string_agg(i.goods_name || ' ×' || i.quantity, '，' ORDER BY i.id) FROM mall_order_item i WHERE i.order_code = v.order_code)"),
    titleId: column<number | null>('v.title_id'),
    invoiceType: column<string>('v.invoice_type'),
    titleName: column<string>('v.title_name'),
    taxNo: column<string>('v.tax_no'),
    bankName: column<string>('v.bank_name'),
    bankAccount: column<string>('v.bank_account'),
    titleAddress: column<string>('v.title_address'),
    titlePhone: column<string>('v.title_phone'),
    amount: column('v.amount', moneyOf),
    content: column<string>('v.content'),
    email: column<string>('v.email'),
    remark: column<string>('v.remark'),
    state: column<string>('v.state'),
    stateName: derived((row) => INVOICE_STATE_LABEL[row.state as string] ?? (row.state as string)),
    invoiceNo: textColumn('v.invoice_no'),
    issueTime: column('v.issued_at', isoOrNull),
    rejectReason: textColumn('v.reject_reason'),
    appliedBy: column<string>('v.applied_by'),
    applyTime: column('v.created_at', isoOrNull),
  },
  sorts: ['code', 'applyTime', 'amount', 'issueTime'],
  fallback: 'v.created_at DESC, v.id DESC',
});
export type InvoiceRecord = ItemOf<typeof INVOICES>;

/** The invoice `code` within reach ("404" 发票不存在 otherwise). */
async function findInvoice(context: OperationContext<unknown>, code: string): Promise<InvoiceRecord> {
  const where = new Conditions();
  await invoiceScope(where, context);
  const invoice = await INVOICES.find(context, where.add('v.code = $?', code));
  if (!invoice) throw fail.notFound('发票不存在');
  return invoice;
}

/** The paid orders within reach that hold no invoice yet (applied for or issued). */
const INVOICEABLE = `o.state = ANY($2::text[]) AND o.pay_amount > 0
  AND NOT EXISTS (SELECT 1 FROM invoice v WHERE v.order_code = o.code AND v.state <> 'rejected')`;

const MAIL_PATTERN = '^([A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,})?$';

export const invoiceOperations = [
  defineOperation('invoice.page', { paramSchema: INVOICES.paramSchema, handler: (context) => INVOICES.page(context) }),

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
