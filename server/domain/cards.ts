import { fail } from '../http/envelope';
import { businessDayStamp } from './businessTime';

/**
 * IoT SIM cards (SPEC §1, §7 "Card"): the card's own life cycle and those of the documents that
 * move it — delivery, replacement (alter delivery), renewal and recharge. Each state set is a
 * dictionary of schemas/dictionaries.json; each action names the states it may start from, and an
 * action the state does not allow answers "409" with the state's label.
 *
 * Card (card_state):
 *   in_stock ──delivery shipped / tenantCard.save──▶ testing ──sync (test period over)──▶ active
 *   active|testing ──sim.deactivate──▶ suspended ──sim.resumption (not expired)──▶ active
 *   active|testing|suspended ──alter delivery shipped──▶ replaced (its replacement becomes active)
 *   suspended for expiry, unrenewed for DEACTIVATE_AFTER_DAYS ──sync──▶ deactivated
 */
export const CARD_STATE = {
  inStock: 'in_stock',
  testing: 'testing',
  active: 'active',
  suspended: 'suspended',
  deactivated: 'deactivated',
  replaced: 'replaced',
} as const;
export type CardState = (typeof CARD_STATE)[keyof typeof CARD_STATE];

export const CARD_STATE_LABEL: Readonly<Record<CardState, string>> = {
  in_stock: '库存',
  testing: '测试期',
  active: '已激活',
  suspended: '已停机',
  deactivated: '已销户',
  replaced: '已换卡',
};

/** Cards a tenant uses (and pays service for): not in stock, not closed, not replaced. */
export const SERVICE_STATES: readonly CardState[] = [CARD_STATE.testing, CARD_STATE.active, CARD_STATE.suspended];

export const CARD_ACTIONS = {
  deactivate: [CARD_STATE.testing, CARD_STATE.active],
  resume: [CARD_STATE.suspended],
  replace: [CARD_STATE.testing, CARD_STATE.active, CARD_STATE.suspended],
  assignTenant: [CARD_STATE.inStock],
  recharge: [CARD_STATE.active, CARD_STATE.suspended],
} as const satisfies Record<string, readonly CardState[]>;

/**
 * Delivery (card_delivery_state): created (cards reserved from stock) ──confirm──▶ shipped
 * ──the tenant confirms the order──▶ received; created ──cancel──▶ cancelled; shipped ──revoke──▶
 * revoked (the cards come back to stock, the order waits for a new delivery).
 */
export const DELIVERY_STATE = { created: 'created', shipped: 'shipped', received: 'received', revoked: 'revoked', cancelled: 'cancelled' } as const;
export type DeliveryState = (typeof DELIVERY_STATE)[keyof typeof DELIVERY_STATE];
export const DELIVERY_STATE_LABEL: Readonly<Record<DeliveryState, string>> = { created: '待发货', shipped: '已发货', received: '已签收', revoked: '已撤回', cancelled: '已取消' };
export const DELIVERY_ACTIONS = {
  update: [DELIVERY_STATE.created],
  confirm: [DELIVERY_STATE.created],
  cancel: [DELIVERY_STATE.created],
  revoke: [DELIVERY_STATE.shipped],
} as const satisfies Record<string, readonly DeliveryState[]>;

/**
 * Replacement (card_alter_state): the tenant applies (changeCard, noCardChangeCard, and
 * nextChangeCard adds cards to its open application) ──jdCreate (new cards picked, JD waybill)──▶
 * created ──confirm──▶ shipped (new cards active, old ones replaced) ──recovery / recoveryAll (every
 * old card back)──▶ recovered. applied|created ──cancel──▶ cancelled. A no-card replacement has
 * nothing to recover: shipped is its end.
 */
export const ALTER_STATE = { applied: 'applied', created: 'created', shipped: 'shipped', recovered: 'recovered', cancelled: 'cancelled' } as const;
export type AlterState = (typeof ALTER_STATE)[keyof typeof ALTER_STATE];
export const ALTER_STATE_LABEL: Readonly<Record<AlterState, string>> = { applied: '待处理', created: '已下单', shipped: '已发货', recovered: '已回收', cancelled: '已取消' };
export const ALTER_ACTIONS = {
  addCards: [ALTER_STATE.applied],
  createWaybill: [ALTER_STATE.applied],
  confirm: [ALTER_STATE.created],
  cancel: [ALTER_STATE.applied, ALTER_STATE.created],
  recover: [ALTER_STATE.shipped],
} as const satisfies Record<string, readonly AlterState[]>;

/**
 * Renewal (card_renew_state), one row per card whose service ends within RENEW_WINDOW_DAYS:
 * unregistered ──register (years, price from the fee standard)──▶ registered ──confirm (the tenant
 * agrees; the rows go into a renewal order)──▶ confirmed. unregistered|registered ──onLock──▶ locked
 * (not renewed: the card is suspended at its expiry).
 * Renewal order (card_renew_order_state): pending_confirm ──renewOrder.confirm──▶ confirmed (each
 * card's service extended by its years).
 */
export const RENEW_STATE = { unregistered: 'unregistered', registered: 'registered', confirmed: 'confirmed', locked: 'locked' } as const;
export type RenewState = (typeof RENEW_STATE)[keyof typeof RENEW_STATE];
export const RENEW_STATE_LABEL: Readonly<Record<RenewState, string>> = { unregistered: '未登记', registered: '已登记', confirmed: '已确认', locked: '已锁定' };
export const RENEW_ACTIONS = {
  register: [RENEW_STATE.unregistered, RENEW_STATE.registered],
  confirm: [RENEW_STATE.registered],
  lock: [RENEW_STATE.unregistered, RENEW_STATE.registered],
} as const satisfies Record<string, readonly RenewState[]>;

export const RENEW_ORDER_STATE = { pendingConfirm: 'pending_confirm', confirmed: 'confirmed' } as const;
export type RenewOrderState = (typeof RENEW_ORDER_STATE)[keyof typeof RENEW_ORDER_STATE];
export const RENEW_ORDER_STATE_LABEL: Readonly<Record<RenewOrderState, string>> = { pending_confirm: '待确认', confirmed: '已确认' };

/**
 * Recharge (recharge_order_state): paid online (wechat, alipay) it is confirmed at once; by
 * corporate transfer it is pending_payment ──contract/voucher uploaded──▶ paid ──refresh (the
 * transfer arrived)──▶ confirmed. pending_payment ──cancel──▶ cancelled. Confirmation extends each
 * card's service by the years bought.
 */
export const RECHARGE_STATE = { pendingPayment: 'pending_payment', paid: 'paid', confirmed: 'confirmed', cancelled: 'cancelled' } as const;
export type RechargeState = (typeof RECHARGE_STATE)[keyof typeof RECHARGE_STATE];
export const RECHARGE_STATE_LABEL: Readonly<Record<RechargeState, string>> = { pending_payment: '待支付', paid: '已支付', confirmed: '已确认', cancelled: '已取消' };
export const RECHARGE_ACTIONS = {
  cancel: [RECHARGE_STATE.pendingPayment],
  uploadContract: [RECHARGE_STATE.pendingPayment, RECHARGE_STATE.paid],
  refresh: [RECHARGE_STATE.paid],
  confirmationLetter: [RECHARGE_STATE.paid, RECHARGE_STATE.confirmed],
} as const satisfies Record<string, readonly RechargeState[]>;

export const ONLINE_PAYMENT_METHODS = ['wechat', 'alipay'] as const;
export const PAYMENT_METHODS = [...ONLINE_PAYMENT_METHODS, 'corporate'] as const;

export const CARD_OPERATORS = ['cmcc', 'cucc', 'ctcc', 'cbn'] as const;
export const CARD_OPERATOR_LABEL: Readonly<Record<string, string>> = { cmcc: '中国移动', cucc: '中国联通', ctcc: '中国电信', cbn: '中国广电' };
export const CARD_NETWORKS = ['nb', 'cat1', '4g', '5g'] as const;
export const CARD_FORM_FACTORS = ['plug', 'mp1', 'mp2', 'esim'] as const;
export const CARD_GRADES = ['consumer', 'industrial', 'automotive'] as const;
export const CEASE_REASONS = ['customer_request', 'abnormal_usage', 'machine_card_separation', 'arrears', 'expired'] as const;
export const CEASE_REASON_LABEL: Readonly<Record<string, string>> = {
  customer_request: '客户申请停机',
  abnormal_usage: '流量异常',
  machine_card_separation: '机卡分离',
  arrears: '欠费停机',
  expired: '服务到期',
};
export const EXPRESS_COMPANIES = ['sf', 'jd', 'zto', 'ems'] as const;
export const EXPRESS_COMPANY_LABEL: Readonly<Record<string, string>> = { sf: '顺丰速运', jd: '京东物流', zto: '中通快递', ems: '中国邮政 EMS' };

/** Days a new card may be used free before its service starts. */
export const TEST_PERIOD_DAYS = 90;
/** Cards whose service ends within this many days come up for renewal and in the recharge reminder. */
export const RENEW_WINDOW_DAYS = 60;
export const EXPIRING_SOON_DAYS = 30;
/** A card suspended at its expiry and not renewed is closed at the operator after this many days. */
export const DEACTIVATE_AFTER_DAYS = 90;
/** The most cards one warehousing, delivery or batch action takes. */
export const MAX_BATCH_CARDS = 5000;

/** ICCID: 89 (telecom) then 17 or 18 digits; MSISDN of an IoT card: 13 digits. */
export const ICCID_PATTERN = '^89[0-9]{17,18}$';
/** SPEC §5 express number: letters, digits and commas. */
export const EXPRESS_NO_PATTERN = '^[A-Za-z0-9,]+$';
export const PHONE_PATTERN = '^1[3-9]\\d{9}$';

const DAY_MS = 86_400_000;
export const addDays = (time: Date, days: number): Date => new Date(time.getTime() + days * DAY_MS);
/** `years` calendar years later (the service end of a card). */
export function addYears(time: Date, years: number): Date {
  const next = new Date(time.getTime());
  next.setUTCFullYear(next.getUTCFullYear() + years);
  return next;
}

/** Money in yuan with two decimals, computed in fen so sums never drift. */
export function yuan(fen: number): number {
  return Math.round(fen) / 100;
}
export const fenOf = (amount: number | string): number => Math.round(Number(amount) * 100);

/** Price of `years` of service at `unitPrice` per card and year. */
export function serviceAmount(unitPrice: number | string, years: number, cards = 1): number {
  return yuan(fenOf(unitPrice) * years * cards);
}

/** A document code: prefix, the business day of `at` (YYYYMMDD in `timeZone`) and the row id, e.g. FH2026112200042. */
export function documentCode(prefix: string, at: Date, id: number, timeZone: string): string {
  return `${prefix}${businessDayStamp(at, timeZone)}${String(id).padStart(5, '0')}`;
}

/** "409" unless `state` is one of `allowed`: 当前状态（已取消）不允许确认. */
export function requireState<S extends string>(state: string, allowed: readonly S[], labels: Readonly<Record<S, string>>, action: string): asserts state is S {
  if (!(allowed as readonly string[]).includes(state)) {
    throw fail.conflict(`当前状态（${labels[state as S] ?? state}）不允许${action}`);
  }
}
