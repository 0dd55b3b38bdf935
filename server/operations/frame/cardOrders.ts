import { CARD_ORDER_STATE } from '../../domain/cardOrders';
import { defineOperation } from '../define';
import { callerTenant } from './tenant';

/** SPEC §4 "Card startup check": "1" when the caller's tenant has a card order awaiting its confirmation, else "0". */
export const isBulletBox = defineOperation<Record<string, never>, '0' | '1'>('card.order.isBulletBox', {
  async handler(context) {
    const tenant = await callerTenant(context);
    if (!tenant) return '0';
    const rows = await context.db.query('SELECT 1 FROM card_order WHERE tenant_code = $1 AND state = $2 LIMIT 1', [tenant, CARD_ORDER_STATE.awaitingConfirmation]);
    return rows.length > 0 ? '1' : '0';
  },
});

export const CARD_ORDER_OPERATIONS = [isBulletBox];
