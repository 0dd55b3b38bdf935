import type { Row } from '../db/bulk';
import { CARD_ORDER_STATE } from '../domain/cardOrders';

const DAY_MS = 86_400_000;

/**
 * The card orders of the demo world so far: one of 杭州云联 (T0001) awaiting its confirmation, so
 * its staff see the start-up notice; 苏州智水 (T0002) has none. Issue 7 brings the full order book.
 */
export function cardOrderRows(today: Date): Row[] {
  const created = new Date(Math.floor(today.getTime() / DAY_MS) * DAY_MS - 2 * DAY_MS + 2 * 3_600_000).toISOString();
  return [
    {
      id: 1,
      code: 'CO202600001',
      tenant_code: 'T0001',
      state: CARD_ORDER_STATE.awaitingConfirmation,
      card_count: 200,
      remark: '西湖智慧水务项目二期 NB-IoT 卡 200 张',
      created_at: created,
      updated_at: created,
    },
  ];
}
