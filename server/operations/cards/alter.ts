import type { Queryable } from '../../db/database';
import { ALTER_ACTIONS, ALTER_STATE, ALTER_STATE_LABEL, CARD_ACTIONS, CARD_STATE_LABEL, documentCode, EXPRESS_COMPANY_LABEL, requireState, type AlterState } from '../../domain/cards';
import { fail } from '../../http/envelope';
import { defineOperation } from '../../core/operation';
import { objectOf, optionalPlainText, plainText, enumParam, keywordParam, organizationParam, schemaOf, type ParamOf } from '../../core/params';
import type { OperationContext } from '../../core/context';
import { Conditions, containing } from '../../core/listQuery';
import { column, custom, equals, listing, textColumn, type ItemOf } from '../../core/listing';
import { BY_TENANT } from '../../core/scope';
import { cardScope, codeParam, expressNoParam, iccidList, loginNameOf, nextId, nullableTimeColumn, phoneParam, requireCardStaff, requireSupplyStaff } from './access';
import { availableStock, reserveStock } from './delivery';
import { findCards, OPEN_ALTER, type CardRecord } from './sims';
import { cardWorkflow } from './cardWorkflow';

/**
 * Card replacement (换卡发货): the tenant applies for faulty cards to be replaced (with the old
 * card returned, or without: 无卡换卡), the platform picks new cards and a JD waybill, ships, and
 * takes the old cards back. Shipping moves each device onto its new card.
 */

const ALTERS = listing({
  from: `card_alter a LEFT JOIN organization t ON t.code = a.tenant_code LEFT JOIN organization g ON g.code = a.organization_code`,
  narrowFrom: 'card_alter a',
  key: 'a.id',
  scope: async (where, context) => where.scope(await cardScope(context), 'a', BY_TENANT),
  filters: {
    keyword: custom(keywordParam, (where, keyword) => {
      where.add("(a.code ILIKE $? OR a.express_no ILIKE $? OR EXISTS (SELECT 1 FROM card_alter_item i WHERE i.alter_code = a.code AND (i.old_iccid ILIKE $? OR COALESCE(i.new_iccid, '') ILIKE $?)))", containing(keyword));
    }),
    state: equals('a.state', enumParam(Object.values(ALTER_STATE))),
    kind: equals('a.kind', enumParam(['with_card', 'no_card'])),
    tenantCode: equals('a.tenant_code', organizationParam),
  },
  columns: {
    id: column<number>('a.id'),
    code: column<string>('a.code'),
    tenantCode: column<string>('a.tenant_code'),
    tenantName: textColumn('t.name'),
    organizationCode: column<string>('a.organization_code'),
    organizationName: textColumn('g.name'),
    kind: column<'with_card' | 'no_card'>('a.kind'),
    state: column<AlterState>('a.state'),
    reason: column<string>('a.reason'),
    cardCount: column<number>('(SELECT count(*)::int FROM card_alter_item i WHERE i.alter_code = a.code)'),
    assignedCount: column<number>('(SELECT count(i.new_iccid)::int FROM card_alter_item i WHERE i.alter_code = a.code)'),
    recoveredCount: column<number>('(SELECT count(*) FILTER (WHERE i.recovered)::int FROM card_alter_item i WHERE i.alter_code = a.code)'),
    expressCompany: column<string>('a.express_company'),
    expressCompanyName: column('a.express_company', (company: string) => EXPRESS_COMPANY_LABEL[company] ?? ''),
    expressNo: column<string>('a.express_no'),
    receiver: column<string>('a.receiver'),
    receiverPhone: column<string>('a.receiver_phone'),
    address: column<string>('a.address'),
    applicant: column<string>('a.applicant'),
    createTime: nullableTimeColumn('a.created_at'),
    waybillTime: nullableTimeColumn('a.waybill_at'),
    shipTime: nullableTimeColumn('a.shipped_at'),
    recoverTime: nullableTimeColumn('a.recovered_at'),
    cancelTime: nullableTimeColumn('a.cancelled_at'),
  },
  sorts: ['code', 'createTime', 'shipTime'],
  fallback: 'a.created_at DESC, a.id DESC',
});

/** The cards of an application: each old card, its device, the new card picked for it and whether the old one is back. */
const ALTER_ITEMS = listing({
  from: 'card_alter_item i JOIN sim_card o ON o.iccid = i.old_iccid LEFT JOIN sim_card n ON n.iccid = i.new_iccid',
  filters: {},
  columns: {
    oldIccid: column<string>('i.old_iccid'),
    oldMsisdn: column<string>('o.msisdn'),
    deviceCode: textColumn('COALESCE(o.device_code, n.device_code)'),
    newIccid: textColumn('i.new_iccid'),
    newMsisdn: textColumn('n.msisdn'),
    recovered: column<boolean>('i.recovered'),
    recoverTime: nullableTimeColumn('i.recovered_at'),
  },
  sorts: [],
  fallback: 'i.id',
});

const NOT_FOUND = '换卡单不存在';

type AlterRecord = ItemOf<typeof ALTERS>;

async function findAlter(context: OperationContext<unknown>, code: string, db: Queryable = context.db): Promise<AlterRecord> {
  const where = new Conditions().scope(await cardScope(context), 'a', BY_TENANT).add('a.code = $?', code);
  const alter = await ALTERS.find(context, where, '', db);
  if (!alter) throw fail.notFound(NOT_FOUND);
  return alter;
}

const ALTER = cardWorkflow({ table: 'card_alter', labels: ALTER_STATE_LABEL, missing: NOT_FOUND, changed: '换卡单状态已变化，请刷新后重试', find: findAlter });

/** Cards that may be replaced: in service, of one tenant, in no open application. */
function checkReplaceable(cards: readonly CardRecord[]): string {
  const tenants = new Set(cards.map((card) => card.tenantCode));
  if (tenants.size !== 1 || tenants.has('')) throw fail.conflict('所选卡片须属于同一租户');
  for (const card of cards) {
    requireState(card.state, CARD_ACTIONS.replace, CARD_STATE_LABEL, `换卡（${card.iccid}）`);
    if (card.inReplacement) throw fail.conflict(`卡片 ${card.iccid} 已在换卡申请 ${card.alterCode} 中`);
  }
  return [...tenants][0];
}

/**
 * Locks the old cards of an application and checks them again inside its transaction: an
 * application made at the same time for one of them, or a step on it, is seen here ("409").
 */
async function lockReplaceable(tx: Queryable, iccids: readonly string[]): Promise<void> {
  const rows = await tx.query<{ iccid: string; state: string; open_alter: string | null }>(
    `SELECT s.iccid, s.state, ${OPEN_ALTER} AS open_alter FROM sim_card s WHERE s.iccid = ANY($1::text[]) ORDER BY s.iccid FOR UPDATE OF s`,
    [[...iccids]],
  );
  const byIccid = new Map(rows.map((row) => [row.iccid, row]));
  for (const iccid of iccids) {
    const row = byIccid.get(iccid);
    requireState(row?.state ?? '', CARD_ACTIONS.replace, CARD_STATE_LABEL, `换卡（${iccid}）`);
    if (row?.open_alter) throw fail.conflict(`卡片 ${iccid} 已在换卡申请 ${row.open_alter} 中`);
  }
}

async function addItems(db: Queryable, code: string, iccids: readonly string[], now: Date): Promise<void> {
  await lockReplaceable(db, iccids);
  await db.query('INSERT INTO card_alter_item (alter_code, old_iccid) SELECT $1, unnest($2::text[])', [code, [...iccids]]);
  await db.query('UPDATE sim_card SET alter_code = $1, updated_at = $3 WHERE iccid = ANY($2::text[])', [code, [...iccids], now]);
}

type ApplyParam = ParamOf<typeof applySchema>;
const applySchema = objectOf(
  { iccids: iccidList(50), reason: plainText(200), receiver: optionalPlainText(32), receiverPhone: schemaOf<string>({ anyOf: [phoneParam, { type: 'string', maxLength: 0 }] }), address: optionalPlainText(200) },
  ['iccids', 'reason'],
);

function applyFor(kind: 'with_card' | 'no_card') {
  return async (context: OperationContext<ApplyParam>) => {
    const cards = await findCards(context, context.param.iccids);
    const tenant = checkReplaceable(cards);
    const owners = new Set(cards.map((card) => card.organizationCode));
    const owner = owners.size === 1 ? [...owners][0] : tenant;
    const code = await context.db.transaction(async (tx) => {
      const [contact] = await tx.query<{ contact_name: string; contact_phone: string; address: string }>(
        'SELECT contact_name, contact_phone, address FROM card_order WHERE tenant_code = $1 AND contact_name <> \'\' ORDER BY created_at DESC LIMIT 1',
        [tenant],
      );
      const id = await nextId(tx, 'card_alter');
      const alterCode = documentCode('HK', context.now, id, context.config.timeZone);
      await tx.query(
        `INSERT INTO card_alter (id, code, tenant_code, organization_code, kind, state, reason, receiver, receiver_phone, address, applicant, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)`,
        [id, alterCode, tenant, owner, kind, ALTER_STATE.applied, context.param.reason, context.param.receiver?.trim() || contact?.contact_name || '', context.param.receiverPhone || contact?.contact_phone || '',
          context.param.address?.trim() || contact?.address || '', loginNameOf(context), context.now],
      );
      await addItems(tx, alterCode, context.param.iccids, context.now);
      return alterCode;
    });
    return findAlter(context, code);
  };
}

const codeOnly = objectOf({ code: codeParam() }, ['code']);

async function markRecovered(context: OperationContext<unknown>, alter: AlterRecord, iccids: readonly string[] | null) {
  ALTER.require(alter, ALTER_ACTIONS.recover, '回收');
  if (alter.kind === 'no_card') throw fail.conflict('无卡换卡无需回收旧卡');
  return ALTER.take(context, alter, ALTER_ACTIONS.recover, '回收', async (tx) => {
    if (iccids) {
      const known = await tx.query<{ old_iccid: string }>('SELECT old_iccid FROM card_alter_item WHERE alter_code = $1 AND old_iccid = ANY($2::text[])', [alter.code, [...iccids]]);
      if (known.length !== iccids.length) throw fail.notFound('物联网卡不在该换卡单中');
    }
    const marked = await tx.query(
      `UPDATE card_alter_item SET recovered = true, recovered_at = $2 WHERE alter_code = $1 AND NOT recovered ${iccids ? 'AND old_iccid = ANY($3::text[])' : ''} RETURNING old_iccid`,
      iccids ? [alter.code, context.now, [...iccids]] : [alter.code, context.now],
    );
    if (marked.length === 0) throw fail.conflict('所选旧卡均已回收');
    const [left] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM card_alter_item WHERE alter_code = $1 AND NOT recovered', [alter.code]);
    if (left.n === 0) await ALTER.move(tx, alter.code, { from: ALTER_ACTIONS.recover, to: ALTER_STATE.recovered, set: { recovered_at: context.now, updated_at: context.now } });
    return { recovered: marked.length, remaining: left.n };
  });
}

export const alterOperations = [
  defineOperation('card.alterDelivery.page', {
    paramSchema: ALTERS.paramSchema,
    handler: async (context) => {
      requireCardStaff(context);
      return ALTERS.page(context);
    },
  }),

  defineOperation('card.alterDelivery.detail', {
    paramSchema: codeOnly,
    handler: async (context) => {
      requireCardStaff(context);
      const alter = await findAlter(context, context.param.code);
      return { ...alter, items: await ALTER_ITEMS.findAll(context, new Conditions().add('i.alter_code = $?', alter.code), ' ORDER BY i.id') };
    },
  }),

  defineOperation('card.alterDelivery.changeCard', { paramSchema: applySchema, handler: applyFor('with_card') }),
  defineOperation('card.alterDelivery.noCardChangeCard', { paramSchema: applySchema, handler: applyFor('no_card') }),

  // Adds more cards to an application the platform has not yet handled.
  defineOperation('card.alterDelivery.nextChangeCard', {
    paramSchema: objectOf({ code: codeParam(), iccids: iccidList(50) }, ['code', 'iccids']),
    handler: async (context) => {
      const alter = await findAlter(context, context.param.code);
      ALTER.require(alter, ALTER_ACTIONS.addCards, '继续换卡');
      const cards = await findCards(context, context.param.iccids);
      if (checkReplaceable(cards) !== alter.tenantCode) throw fail.conflict('所选卡片须属于同一租户');
      await ALTER.take(context, alter, ALTER_ACTIONS.addCards, '继续换卡', (tx) => addItems(tx, alter.code, context.param.iccids, context.now));
      return findAlter(context, alter.code);
    },
  }),

  // The platform picks a new card for each old one (same specification) and books the JD waybill.
  defineOperation('card.alterDelivery.jdCreate', {
    paramSchema: objectOf({ code: codeParam(), expressNo: expressNoParam }, ['code']),
    handler: async (context) => {
      requireSupplyStaff(context);
      return ALTER.step(context, context.param.code, ALTER_ACTIONS.createWaybill, '创建京东运单', async (tx, alter) => {
        const items = await tx.query<{ id: number; old_iccid: string; custom_code: string | null }>(
          'SELECT i.id, i.old_iccid, s.custom_code FROM card_alter_item i JOIN sim_card s ON s.iccid = i.old_iccid WHERE i.alter_code = $1 ORDER BY i.id',
          [alter.code],
        );
        const bySpec = new Map<string, typeof items>();
        for (const item of items) bySpec.set(item.custom_code ?? '', [...(bySpec.get(item.custom_code ?? '') ?? []), item]);
        for (const [spec, group] of bySpec) {
          const fresh = await availableStock(tx, spec || null, group.length);
          if (fresh.length < group.length) throw fail.conflict(`库存不足：需要 ${group.length} 张同型号卡，可用 ${fresh.length} 张`);
          for (const [index, item] of group.entries()) {
            await tx.query('UPDATE card_alter_item SET new_iccid = $2 WHERE id = $1', [item.id, fresh[index]]);
          }
          await reserveStock(tx, 'alter_code', alter.code, fresh, context.now);
        }
        const waybill = context.param.expressNo ?? `JDVA${String(context.now.getTime()).slice(-8)}${String(alter.id).padStart(4, '0')}`;
        await ALTER.move(tx, alter.code, {
          from: ALTER_ACTIONS.createWaybill,
          to: ALTER_STATE.created,
          set: { express_company: 'jd', express_no: waybill, waybill_at: context.now, updated_at: context.now },
        });
      });
    },
  }),

  // Ships the new cards: each takes over its old card's tenant, device, package and service end.
  defineOperation('card.alterDelivery.confirm', {
    paramSchema: codeOnly,
    handler: async (context) => {
      requireSupplyStaff(context);
      // Shipped once (the state is read again under the lock): a second confirmation would take the old cards' (by then replaced) state over.
      return ALTER.step(context, context.param.code, ALTER_ACTIONS.confirm, '确认发货', async (tx, alter) => {
        await tx.query(
          `UPDATE sim_card n SET
              state = CASE WHEN o.state = 'testing' THEN 'testing' WHEN o.state = 'suspended' AND o.cease_reason = 'expired' THEN 'suspended' ELSE 'active' END,
              tenant_code = o.tenant_code, organization_code = o.organization_code, order_code = o.order_code, package_code = o.package_code, flow_mb = o.flow_mb,
              device_code = o.device_code, test_until = o.test_until, activated_at = CASE WHEN o.state = 'testing' THEN NULL ELSE $2::timestamptz END, expires_at = o.expires_at,
              cease_reason = CASE WHEN o.state = 'suspended' AND o.cease_reason = 'expired' THEN 'expired' END,
              suspended_at = CASE WHEN o.state = 'suspended' AND o.cease_reason = 'expired' THEN o.suspended_at END, updated_at = $2
             FROM card_alter_item i JOIN sim_card o ON o.iccid = i.old_iccid
            WHERE i.alter_code = $1 AND n.iccid = i.new_iccid`,
          [alter.code, context.now],
        );
        await tx.query('UPDATE device d SET iccid = i.new_iccid FROM card_alter_item i WHERE i.alter_code = $1 AND d.iccid = i.old_iccid', [alter.code]);
        await tx.query(
          `UPDATE sim_card o SET state = 'replaced', replaced_by = i.new_iccid, device_code = NULL, month_used_mb = 0, updated_at = $2
             FROM card_alter_item i WHERE i.alter_code = $1 AND o.iccid = i.old_iccid`,
          [alter.code, context.now],
        );
        await ALTER.move(tx, alter.code, { from: ALTER_ACTIONS.confirm, to: ALTER_STATE.shipped, set: { shipped_at: context.now, updated_at: context.now } });
      });
    },
  }),

  defineOperation('card.alterDelivery.cancel', {
    paramSchema: objectOf({ code: codeParam(), reason: optionalPlainText(200) }, ['code']),
    handler: async (context) => {
      requireSupplyStaff(context);
      return ALTER.step(context, context.param.code, ALTER_ACTIONS.cancel, '取消', async (tx, alter) => {
        await tx.query('UPDATE sim_card SET alter_code = NULL, updated_at = $2 WHERE alter_code = $1', [alter.code, context.now]);
        await tx.query('UPDATE card_alter_item SET new_iccid = NULL WHERE alter_code = $1', [alter.code]);
        await ALTER.move(tx, alter.code, { from: ALTER_ACTIONS.cancel, to: ALTER_STATE.cancelled, set: { cancelled_at: context.now, updated_at: context.now } });
      });
    },
  }),

  defineOperation('card.alterDelivery.recovery', {
    paramSchema: objectOf({ code: codeParam(), iccids: iccidList(50) }, ['code', 'iccids']),
    handler: async (context) => {
      requireSupplyStaff(context);
      const alter = await findAlter(context, context.param.code);
      return { ...(await markRecovered(context, alter, context.param.iccids)), alter: await findAlter(context, alter.code) };
    },
  }),

  defineOperation('card.alterDelivery.recoveryAll', {
    paramSchema: codeOnly,
    handler: async (context) => {
      requireSupplyStaff(context);
      const alter = await findAlter(context, context.param.code);
      return { ...(await markRecovered(context, alter, null)), alter: await findAlter(context, alter.code) };
    },
  }),
];

