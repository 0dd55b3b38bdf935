import { awaitingConfirmation } from '../cards/orders';
import { defineOperation } from '../../core/operation';
import { callerTenant } from '../../core/access';

/**
 * SPEC §4 "Card startup check": "1" when a card order awaits the confirmation of the caller's
 * tenant within the request's scope, else "0". The scope is the one /card/order/user lists (the
 * selected organisation and below), so the notice never points at an empty list (issue 21).
 */
export const isBulletBox = defineOperation<Record<string, never>, '0' | '1'>('card.order.isBulletBox', {
  async handler(context) {
    if (!(await callerTenant(context))) return '0';
    const where = await awaitingConfirmation(context);
    const rows = await context.db.query(`SELECT 1 FROM card_order o WHERE ${where.sql} LIMIT 1`, where.params);
    return rows.length > 0 ? '1' : '0';
  },
});

export const CARD_ORDER_OPERATIONS = [isBulletBox];
