import type { Queryable } from '../../db/database';
import {
  addDays,
  CARD_ACTIONS,
  CARD_OPERATOR_LABEL,
  CARD_STATE,
  CARD_STATE_LABEL,
  CEASE_REASON_LABEL,
  CEASE_REASONS,
  DEACTIVATE_AFTER_DAYS,
  RENEW_STATE,
  RENEW_WINDOW_DAYS,
  requireState,
  TEST_PERIOD_DAYS,
  type CardState,
} from '../../domain/cards';
import { organizationsWithin, ORGANIZATION_TYPE } from '../../domain/organizations';
import { fail } from '../../http/envelope';
import { exportFile } from '../../core/exports';
import { defineOperation } from '../../core/operation';
import { enumOf, objectOf, optionalPlainText, organizationParam, schemaOf } from '../../core/params';
import type { OperationContext } from '../../core/context';
import { isPlatformStaff } from '../../core/access';
import { Conditions } from '../../core/listQuery';
import { column, derived, listing, textColumn, type ItemOf } from '../../core/listing';
import { BY_TENANT } from '../../core/scope';
import { cardScope, daysUntil, iccidList, iccidParam, loginNameOf, mb, nullableTimeColumn, requireCardStaff } from './access';
import { isoOrNull } from '../../core/values';
import { markSynced } from './orders';
import { CARD_FILTERS, cardListScope, cardNarrowFrom } from '../../core/simCards';

/** The cards themselves (物联网卡): list, detail, operator and run information, suspend and resume, sync. */

/** The state of the card `iccid`, locked until the transaction ends. */
async function lockedCardState(tx: Queryable, iccid: string): Promise<string> {
  const [row] = await tx.query<{ state: string }>('SELECT state FROM sim_card WHERE iccid = $1 FOR UPDATE', [iccid]);
  if (!row) throw fail.notFound('物联网卡不存在');
  return row.state;
}

/** The open replacement application (applied or created) a card is an old card of, or null. */
export const OPEN_ALTER = `(SELECT a.code FROM card_alter a WHERE a.code = s.alter_code AND a.state IN ('applied', 'created')
   AND EXISTS (SELECT 1 FROM card_alter_item ai WHERE ai.alter_code = a.code AND ai.old_iccid = s.iccid))`;

// The names a card shows are looked up one by one rather than joined: PostgreSQL spent about 3.7 ms
// planning the seven-table join for every page of 20 cards (2 ms to run it), while each lookup is
// planned on its own in microseconds (issue 19; the work-order list does the same).
const lookup = (table: string, column: string, key: string) => `(SELECT ${column} FROM ${table} WHERE code = ${key})`;
export const CARD_FROM = 'sim_card s LEFT JOIN card_charge_standard p ON p.code = s.package_code LEFT JOIN device dv ON dv.code = s.device_code';

/** This month's data use of a row, in MB. */
const usedOf = (row: Readonly<Record<string, unknown>>) => mb(row.monthUsedMb as string);

/** A card's fields as the lists, the detail and the batch actions read them. */
export const CARD_COLUMNS = {
  id: column<number>('s.id'),
  iccid: column<string>('s.iccid'),
  msisdn: column<string>('s.msisdn'),
  imsi: column<string>('s.imsi'),
  operator: column<string>('s.operator'),
  supplierName: textColumn(lookup('card_supplier', 'name', 's.supplier_code')),
  customCode: textColumn('s.custom_code'),
  customName: textColumn(lookup('card_custom', 'name', 's.custom_code')),
  packageCode: column<string>('s.package_code'),
  packageName: textColumn('p.name'),
  network: textColumn('p.network'),
  flowMb: column<number>('s.flow_mb'),
  state: column<CardState>('s.state'),
  tenantCode: textColumn('s.tenant_code'),
  tenantName: textColumn(lookup('organization', 'name', 's.tenant_code')),
  organizationCode: column<string>('s.organization_code'),
  organizationName: textColumn(lookup('organization', 'name', 's.organization_code')),
  orderCode: textColumn('s.order_code'),
  deliveryCode: textColumn('s.delivery_code'),
  alterCode: textColumn(OPEN_ALTER),
  inReplacement: derived((row) => row.alterCode !== null),
  /** May be put in a replacement application now (in service, in no open one). */
  replaceable: derived((row) => row.alterCode === null && (CARD_ACTIONS.replace as readonly unknown[]).includes(row.state)),
  deviceCode: textColumn('s.device_code'),
  deviceName: textColumn('dv.name'),
  batchCode: textColumn('s.batch_code'),
  testUntil: nullableTimeColumn('s.test_until'),
  activateTime: nullableTimeColumn('s.activated_at'),
  expireTime: nullableTimeColumn('s.expires_at'),
  daysLeft: derived((row, context) => daysUntil(row.expireTime as Date | null, context.now)),
  monthUsedMb: column('s.month_used_mb', mb),
  remainingMb: derived((row) => Math.max(0, Math.round(((row.flowMb as number) - usedOf(row)) * 100) / 100)),
  usagePercent: derived((row) => Math.round((usedOf(row) / (row.flowMb as number)) * 1000) / 10),
  totalUsedMb: column('s.total_used_mb', mb),
  lastSessionTime: nullableTimeColumn('s.last_session_at'),
  ceaseReason: textColumn('s.cease_reason'),
  suspendTime: nullableTimeColumn('s.suspended_at'),
  deactivateTime: nullableTimeColumn('s.deactivated_at'),
  replacedBy: textColumn('s.replaced_by'),
  syncTime: nullableTimeColumn('s.synced_at'),
  remark: column<string>('s.remark'),
  createTime: nullableTimeColumn('s.created_at'),
};

/** The card list (物联网卡): its scope and filters are core/simCards.ts's, which the tenant home counts by too. */
const CARDS = listing({
  from: CARD_FROM,
  narrowFrom: cardNarrowFrom,
  key: 's.id',
  scope: cardListScope,
  filters: CARD_FILTERS,
  columns: CARD_COLUMNS,
  sorts: { iccid: 's.iccid', expireTime: 's.expires_at', monthUsedMb: 's.month_used_mb', activateTime: 's.activated_at', createTime: 's.created_at', usagePercent: '(s.month_used_mb / s.flow_mb)' },
  fallback: 's.id',
});
export type CardRecord = ItemOf<typeof CARDS>;

/** A card as its detail reads it: the list's fields and its device's IMEI and signal. */
const CARD_DETAIL = listing({
  from: CARD_FROM,
  filters: {},
  columns: { ...CARD_COLUMNS, deviceImei: textColumn('dv.imei'), deviceSignal: column<number | null>('dv.signal_strength') },
  sorts: [],
  fallback: 's.id',
});


/** The card `iccid` within the request's scope ("404" 物联网卡不存在 otherwise). */
export async function findCard(context: OperationContext<unknown>, iccid: string, db: Queryable = context.db): Promise<CardRecord & { deviceImei: string; deviceSignal: number | null }> {
  const where = new Conditions().scope(await cardScope(context), 's', BY_TENANT).add('s.iccid = $?', iccid);
  const card = await CARD_DETAIL.find(context, where, '', db);
  if (!card) throw fail.notFound('物联网卡不存在');
  return card;
}

/** Every card of `iccids` within scope, or "404" (batch actions). */
export async function findCards(context: OperationContext<unknown>, iccids: readonly string[], db: Queryable = context.db): Promise<CardRecord[]> {
  const where = new Conditions().scope(await cardScope(context), 's', BY_TENANT).add('s.iccid = ANY($?::text[])', [...iccids]);
  const cards = await CARDS.findAll(context, where, ' ORDER BY s.iccid', db);
  if (cards.length !== new Set(iccids).size) throw fail.notFound('物联网卡不存在');
  return cards;
}

const iccidOnly = objectOf({ iccid: iccidParam }, ['iccid']);

const PLATFORMS: Record<string, { name: string; apn: string }> = {
  cmcc: { name: '中国移动 OneLink', apn: 'CMIOT' },
  cucc: { name: '中国联通 CMP（雁飞）', apn: 'UNIM2M.NJM2MAPN' },
  ctcc: { name: '中国电信 DCP（CMP）', apn: 'CTNB' },
  cbn: { name: '中国广电物联网平台', apn: 'CBNIOT' },
};

/**
 * Brings cards up to date with the operators at `now`: ended test periods start the service,
 * ended services are suspended, long-suspended ones closed, and cards coming to their end get a
 * renewal row. `where` limits it (scope, chosen cards). Answers how many moved each way.
 */
async function syncCards(db: Queryable, where: Conditions, now: Date) {
  const params = where.params;
  const nowParam = where.ref(now);
  const started = await db.query(
    `UPDATE sim_card s SET state = 'active', activated_at = s.test_until,
            expires_at = s.test_until + make_interval(years => COALESCE((SELECT o.years FROM card_order o WHERE o.code = s.order_code), 1)), updated_at = ${nowParam}
      WHERE ${where.sql} AND s.state = 'testing' AND s.test_until <= ${nowParam} RETURNING s.iccid`,
    params,
  );
  const ended = await db.query(
    `UPDATE sim_card s SET state = 'suspended', cease_reason = 'expired', suspended_at = s.expires_at, updated_at = ${nowParam}
      WHERE ${where.sql} AND s.state IN ('active', 'testing') AND s.expires_at <= ${nowParam} RETURNING s.iccid`,
    params,
  );
  const closed = await db.query(
    `UPDATE sim_card s SET state = 'deactivated', deactivated_at = ${nowParam}, device_code = NULL, updated_at = ${nowParam}
      WHERE ${where.sql} AND s.state = 'suspended' AND s.cease_reason = 'expired' AND s.expires_at <= ${nowParam}::timestamptz - interval '${DEACTIVATE_AFTER_DAYS} days'
      RETURNING s.iccid`,
    params,
  );
  const renewals = await db.query(
    `INSERT INTO card_renew (iccid, tenant_code, state, expires_at, created_at, updated_at)
     SELECT s.iccid, s.tenant_code, '${RENEW_STATE.unregistered}', s.expires_at, ${nowParam}, ${nowParam} FROM sim_card s
      WHERE ${where.sql} AND s.state IN ('active', 'suspended') AND s.tenant_code IS NOT NULL AND s.expires_at IS NOT NULL
        AND s.expires_at <= ${nowParam}::timestamptz + interval '${RENEW_WINDOW_DAYS} days' AND s.expires_at > ${nowParam}::timestamptz - interval '${DEACTIVATE_AFTER_DAYS} days'
        AND NOT EXISTS (SELECT 1 FROM card_renew r WHERE r.iccid = s.iccid AND r.expires_at = s.expires_at)
     ON CONFLICT (iccid, expires_at) DO NOTHING RETURNING iccid`,
    params,
  );
  const touched = await db.query(`UPDATE sim_card s SET synced_at = ${nowParam} WHERE ${where.sql} AND s.state <> 'in_stock' RETURNING s.iccid`, params);
  return { synced: touched.length, started: started.length, suspended: ended.length, deactivated: closed.length, renewals: renewals.length };
}

export const simOperations = [
  defineOperation('card.sim.page', {
    paramSchema: CARDS.paramSchema,
    handler: async (context) => {
      requireCardStaff(context);
      return CARDS.page(context);
    },
  }),

  defineOperation('card.sim.detail', {
    paramSchema: iccidOnly,
    handler: async (context) => {
      requireCardStaff(context);
      const card = await findCard(context, context.param.iccid);
      const history = await context.db.query<{ kind: string; code: string; state: string; at: Date; note: string }>(
        `SELECT 'delivery' AS kind, d.code, d.state, COALESCE(d.shipped_at, d.created_at) AS at, d.order_code AS note FROM card_delivery_item i JOIN card_delivery d ON d.code = i.delivery_code WHERE i.iccid = $1
         UNION ALL SELECT 'alter', a.code, a.state, a.created_at, a.reason FROM card_alter_item ai JOIN card_alter a ON a.code = ai.alter_code WHERE ai.old_iccid = $1 OR ai.new_iccid = $1
         UNION ALL SELECT 'renew', COALESCE(r.order_code, ''), r.state, r.updated_at, COALESCE(r.years::text || ' 年', '') FROM card_renew r WHERE r.iccid = $1
         UNION ALL SELECT 'recharge', c.code, c.state, c.created_at, c.years::text || ' 年' FROM card_recharge_item ri JOIN card_recharge c ON c.code = ri.recharge_code WHERE ri.iccid = $1
         ORDER BY at DESC LIMIT 50`,
        [card.iccid],
      );
      const KIND: Record<string, string> = { delivery: '发货', alter: '换卡', renew: '续费', recharge: '充值' };
      return {
        ...card,
        operatorName: CARD_OPERATOR_LABEL[card.operator] ?? '',
        stateName: CARD_STATE_LABEL[card.state],
        ceaseReasonName: CEASE_REASON_LABEL[card.ceaseReason] ?? '',
        history: history.map((h) => ({ kind: KIND[h.kind] ?? h.kind, code: h.code, state: h.state, time: isoOrNull(h.at), note: h.note })),
      };
    },
  }),

  // The card as its operator's platform sees it.
  defineOperation('card.sim.operDetail', {
    paramSchema: iccidOnly,
    handler: async (context) => {
      requireCardStaff(context);
      const card = await findCard(context, context.param.iccid);
      const platform = PLATFORMS[card.operator] ?? PLATFORMS.cmcc;
      const STATUS: Record<CardState, string> = { in_stock: '库存期', testing: '测试期', active: '正使用', suspended: '停机', deactivated: '已销户', replaced: '已销户（换卡）' };
      return {
        iccid: card.iccid,
        msisdn: card.msisdn,
        imsi: card.imsi,
        operator: card.operator,
        operatorName: CARD_OPERATOR_LABEL[card.operator] ?? '',
        platformName: platform.name,
        apn: platform.apn,
        productName: card.packageName,
        network: card.network,
        operatorStatus: STATUS[card.state],
        openTime: card.createTime,
        activateTime: card.activateTime,
        expireTime: card.expireTime,
        imei: card.deviceImei,
        imeiLocked: card.deviceImei !== '',
        smsEnabled: card.network !== 'nb',
        voiceEnabled: false,
        realNameType: '单位实名（行业卡）',
        syncTime: card.syncTime,
      };
    },
  }),

  // The card's session now: online when it spoke within the hour, with its data use this month.
  defineOperation('card.sim.runInfo', {
    paramSchema: iccidOnly,
    handler: async (context) => {
      requireCardStaff(context);
      const card = await findCard(context, context.param.iccid);
      const lastSession = card.lastSessionTime ? new Date(card.lastSessionTime) : null;
      const working = card.state === CARD_STATE.active || card.state === CARD_STATE.testing;
      const online = working && lastSession !== null && context.now.getTime() - lastSession.getTime() < 3_600_000;
      return {
        iccid: card.iccid,
        online,
        onlineState: online ? 'online' : 'offline',
        sessionStartTime: online ? card.lastSessionTime : null,
        lastSessionTime: card.lastSessionTime,
        ipAddress: online ? `10.${(card.id >> 16) & 255}.${(card.id >> 8) & 255}.${card.id & 255}` : '',
        apn: (PLATFORMS[card.operator] ?? PLATFORMS.cmcc).apn,
        rat: card.network,
        rssi: card.deviceSignal === null ? null : -113 + 2 * card.deviceSignal,
        monthUsedMb: card.monthUsedMb,
        flowMb: card.flowMb,
        remainingMb: card.remainingMb,
        usagePercent: card.usagePercent,
        deviceCode: card.deviceCode,
      };
    },
  }),

  defineOperation('card.sim.deactivate', {
    paramSchema: objectOf({ iccid: iccidParam, reason: enumOf(CEASE_REASONS), remark: optionalPlainText(200) }, ['iccid', 'reason']),
    handler: async (context) => {
      const card = await findCard(context, context.param.iccid);
      requireState(card.state, CARD_ACTIONS.deactivate, CARD_STATE_LABEL, '停机');
      await context.db.transaction(async (tx) => {
        requireState(await lockedCardState(tx, card.iccid), CARD_ACTIONS.deactivate, CARD_STATE_LABEL, '停机');
        await tx.query(`UPDATE sim_card SET state = $2, cease_reason = $3, suspended_at = $4, remark = COALESCE($5, remark), updated_at = $4 WHERE iccid = $1 AND state = ANY($6::text[])`, [
          card.iccid,
          CARD_STATE.suspended,
          context.param.reason,
          context.now,
          context.param.remark?.trim() || null,
          [...CARD_ACTIONS.deactivate],
        ]);
      });
      return findCard(context, card.iccid);
    },
  }),

  defineOperation('card.sim.resumption', {
    paramSchema: iccidOnly,
    handler: async (context) => {
      const card = await findCard(context, context.param.iccid);
      requireState(card.state, CARD_ACTIONS.resume, CARD_STATE_LABEL, '复机');
      if (card.expireTime && new Date(card.expireTime) <= context.now) throw fail.conflict('卡片服务已到期，请先续费或充值');
      // Back to its test period while that lasts, else in service.
      const next = card.activateTime === null && card.testUntil && new Date(card.testUntil) > context.now ? CARD_STATE.testing : CARD_STATE.active;
      await context.db.transaction(async (tx) => {
        requireState(await lockedCardState(tx, card.iccid), CARD_ACTIONS.resume, CARD_STATE_LABEL, '复机');
        await tx.query('UPDATE sim_card SET state = $2, cease_reason = NULL, suspended_at = NULL, updated_at = $3 WHERE iccid = $1 AND state = ANY($4::text[])', [
          card.iccid,
          next,
          context.now,
          [...CARD_ACTIONS.resume],
        ]);
      });
      return findCard(context, card.iccid);
    },
  }),

  defineOperation('card.sim.sync', {
    paramSchema: objectOf({ iccids: schemaOf<string[]>({ type: 'array', maxItems: 5000, uniqueItems: true, items: iccidParam }) }),
    handler: async (context) => {
      requireCardStaff(context);
      const where = new Conditions().scope(await cardScope(context), 's', BY_TENANT);
      if (context.param.iccids?.length) {
        await findCards(context, context.param.iccids);
        where.add('s.iccid = ANY($?::text[])', context.param.iccids);
      }
      return context.db.transaction(async (tx) => {
        const result = await syncCards(tx, where, context.now);
        await markSynced(tx, 'sim', context.now, loginNameOf(context), `同步 ${result.synced} 张卡：启用 ${result.started}、到期停机 ${result.suspended}、销户 ${result.deactivated}`);
        return result;
      });
    },
  }),

  defineOperation('card.sim.export', {
    paramSchema: CARDS.paramSchema,
    handler: async (context) => {
      requireCardStaff(context);
      const rows = await CARDS.rows(context);
      return exportFile(
        context,
        '物联网卡',
        [
          { title: 'ICCID', value: (r: CardRecord) => r.iccid, width: 24 },
          { title: 'MSISDN', value: (r) => r.msisdn, width: 16 },
          { title: '运营商', value: (r) => CARD_OPERATOR_LABEL[r.operator] ?? '' },
          { title: '资费套餐', value: (r) => r.packageName, width: 24 },
          { title: '状态', value: (r) => CARD_STATE_LABEL[r.state] },
          { title: '租户', value: (r) => r.tenantName, width: 28 },
          { title: '组织', value: (r) => r.organizationName, width: 20 },
          { title: '设备编码', value: (r) => r.deviceCode, width: 16 },
          { title: '激活时间', value: (r) => (r.activateTime ? new Date(r.activateTime) : null) },
          { title: '到期时间', value: (r) => (r.expireTime ? new Date(r.expireTime) : null) },
          { title: '本月已用（MB）', value: (r) => r.monthUsedMb },
          { title: '套餐流量（MB）', value: (r) => r.flowMb },
        ],
        rows,
      );
    },
  }),

  // Platform staff hand stock cards to a tenant directly (samples, tests): they start their test period.
  defineOperation('card.tenantCard.save', {
    paramSchema: objectOf({ iccids: iccidList(5000), tenantCode: schemaOf<string>({ type: 'string', minLength: 1, maxLength: 64 }), organizationCode: organizationParam }, ['iccids', 'tenantCode']),
    handler: async (context) => {
      if (!isPlatformStaff(context)) throw fail.forbidden();
      const { iccids, tenantCode } = context.param;
      const [tenant] = await context.db.query<{ code: string }>('SELECT code FROM organization WHERE code = $1 AND type = $2', [tenantCode, ORGANIZATION_TYPE.tenant]);
      if (!tenant) throw fail.notFound('租户不存在');
      const owner = context.param.organizationCode || tenantCode;
      if (!(await organizationsWithin(context.db, [tenantCode])).some((org) => org.code === owner)) throw fail.badRequest('参数错误：organizationCode（不属于该租户）');
      const cards = await findCards(context, iccids);
      for (const card of cards) {
        requireState(card.state, CARD_ACTIONS.assignTenant, CARD_STATE_LABEL, '分配租户');
        if (card.deliveryCode || card.alterCode) throw fail.conflict(`卡片 ${card.iccid} 已被发货单或换卡占用`);
      }
      const assigned = await context.db.transaction(async (tx) => {
        // Only cards still free in stock move; unless all of them did (a delivery or another assignment took some), none does.
        const rows = await tx.query<{ iccid: string }>(
          `UPDATE sim_card SET state = $2, tenant_code = $3, organization_code = $4, test_until = $5, remark = '平台直接分配', updated_at = $6
            WHERE iccid = ANY($1::text[]) AND state = 'in_stock' AND delivery_code IS NULL AND alter_code IS NULL RETURNING iccid`,
          [iccids, CARD_STATE.testing, tenantCode, owner, addDays(context.now, TEST_PERIOD_DAYS), context.now],
        );
        if (rows.length !== iccids.length) {
          const moved = new Set(rows.map((row) => row.iccid));
          const missed = iccids.find((iccid) => !moved.has(iccid)) ?? '';
          const [taken] = await tx.query<{ state: string }>('SELECT state FROM sim_card WHERE iccid = $1', [missed]);
          requireState(taken?.state ?? '', CARD_ACTIONS.assignTenant, CARD_STATE_LABEL, '分配租户');
          throw fail.conflict(`卡片 ${missed} 已被发货单或换卡占用`);
        }
        return rows.length;
      });
      return { assigned, tenantCode, organizationCode: owner };
    },
  }),

  defineOperation('card.ceaseReason.list', {
    handler: async (context) => {
      requireCardStaff(context);
      const rows = await context.db.query<{ value: string; label: string }>("SELECT value, label FROM dict_item WHERE type = 'card_cease_reason' ORDER BY sort, value");
      return rows.map((row) => ({ value: row.value, label: row.label }));
    },
  }),

  // The card's data use month by month (the last six months; this month's is the operator's figure).
  defineOperation('card.flowPackage.usedList', {
    paramSchema: iccidOnly,
    handler: async (context) => {
      requireCardStaff(context);
      const card = await findCard(context, context.param.iccid);
      const rows = await context.db.query<{ month: string; used_mb: string }>(
        `SELECT to_char(m, 'YYYY-MM') AS month,
                CASE WHEN m = date_trunc('month', $2::timestamptz) THEN s.month_used_mb
                     WHEN COALESCE(s.activated_at, s.test_until - interval '${TEST_PERIOD_DAYS} days') IS NULL
                       OR COALESCE(s.activated_at, s.test_until - interval '${TEST_PERIOD_DAYS} days') > m + interval '1 month' THEN 0
                     WHEN s.state IN ('deactivated', 'replaced') AND COALESCE(s.deactivated_at, s.updated_at) < m THEN 0
                     ELSE round((s.flow_mb * (20 + abs(hashtext(s.iccid || to_char(m, 'YYYYMM'))) % 60) / 100.0)::numeric, 2) END AS used_mb
           FROM sim_card s, generate_series(date_trunc('month', $2::timestamptz) - interval '5 months', date_trunc('month', $2::timestamptz), interval '1 month') AS m
          WHERE s.iccid = $1 ORDER BY m`,
        [card.iccid, context.now],
      );
      return rows.map((row) => ({ month: row.month, flowMb: card.flowMb, usedMb: mb(row.used_mb), usagePercent: Math.round((mb(row.used_mb) / card.flowMb) * 1000) / 10 }));
    },
  }),

  // Is the card within its package this month?
  defineOperation('card.flowPackage.check', {
    paramSchema: iccidOnly,
    handler: async (context) => {
      requireCardStaff(context);
      const card = await findCard(context, context.param.iccid);
      const level = card.usagePercent > 100 ? 'exceeded' : card.usagePercent >= 80 ? 'warning' : 'normal';
      const message = level === 'exceeded' ? '本月流量已超出套餐，超出部分按量计费' : level === 'warning' ? '本月流量已用 80% 以上' : '流量正常';
      return { iccid: card.iccid, flowMb: card.flowMb, monthUsedMb: card.monthUsedMb, remainingMb: card.remainingMb, usagePercent: card.usagePercent, level, message };
    },
  }),
];
