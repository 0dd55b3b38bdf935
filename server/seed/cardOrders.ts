import type { Row } from '../db/bulk';

/**
 * The card orders loaded with the first tables of the world. None any more: the order book needs
 * the device fleet and the card stock, so server/seed/cards.ts builds it (orders through every
 * state; 杭州云联 has one awaiting its confirmation, 苏州智水 none).
 */
export function cardOrderRows(today: Date): Row[] {
  void today;
  return [];
}
