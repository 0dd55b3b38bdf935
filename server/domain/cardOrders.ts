/**
 * IoT SIM card orders (SPEC §7 "Card"). Issue 4 needs only the state that asks a tenant to
 * confirm an order; issue 7 settles the rest of the life cycle.
 */
export const CARD_ORDER_STATE = { awaitingConfirmation: 'awaiting_confirmation' } as const;
