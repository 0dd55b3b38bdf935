/**
 * IoT SIM card orders (SPEC §7 "Card", issue 7). An order is what the sales system sold a tenant:
 * so many cards of a custom card specification on a package, for so many years. Its life cycle
 * (dictionary card_order_state):
 *
 *   pending_delivery ──delivery.generate──▶ delivering ──delivery.confirm (shipped)──▶ pending_confirm
 *        ▲   │                                  │                                          │
 *        │   └──order.cancel──▶ cancelled       └──delivery.cancel──▶ pending_delivery      ├──order.confirm (the tenant: received)──▶ confirmed
 *        └────────────────────────────────────────────────────delivery.revoke───────────────┘
 *   confirmed ──order.sync (every card of the order out of its test period)──▶ completed
 *
 * The start-up check (card.order.isBulletBox) asks a tenant's staff about orders in
 * pending_confirm: shipped, waiting for the tenant to confirm receipt at /card/order/user.
 */
export const CARD_ORDER_STATE = {
  pendingDelivery: 'pending_delivery',
  delivering: 'delivering',
  awaitingConfirmation: 'pending_confirm',
  confirmed: 'confirmed',
  completed: 'completed',
  cancelled: 'cancelled',
} as const;

export type CardOrderState = (typeof CARD_ORDER_STATE)[keyof typeof CARD_ORDER_STATE];

/** The states each order action may start from. */
export const CARD_ORDER_ACTIONS = {
  generateDelivery: [CARD_ORDER_STATE.pendingDelivery],
  confirm: [CARD_ORDER_STATE.awaitingConfirmation],
  cancel: [CARD_ORDER_STATE.pendingDelivery],
  complete: [CARD_ORDER_STATE.confirmed],
} as const satisfies Record<string, readonly CardOrderState[]>;

export const CARD_ORDER_STATE_LABEL: Readonly<Record<CardOrderState, string>> = {
  pending_delivery: '待发货',
  delivering: '发货中',
  pending_confirm: '待确认',
  confirmed: '已确认',
  completed: '已完成',
  cancelled: '已取消',
};
