import type { OperationDefinition } from '../../core/operation';
import { alterOperations } from './alter';
import { customerRechargeOperations } from './customerRecharge';
import { dashboardOperations } from './dashboards';
import { deliveryOperations } from './delivery';
import { orderOperations } from './orders';
import { rechargeOperations } from './recharge';
import { renewOperations } from './renew';
import { simOperations } from './sims';
import { supplyOperations } from './supply';

/**
 * IoT SIM cards (issue 7): orders, delivery, the cards, replacement, renewal, recharge, the
 * tenant's recharge, card supply and the dashboards (card.order.isBulletBox, the start-up check
 * the main frame asks, among the orders).
 */
export const cardOperations: OperationDefinition[] = [
  ...orderOperations,
  ...deliveryOperations,
  ...simOperations,
  ...alterOperations,
  ...renewOperations,
  ...rechargeOperations,
  ...customerRechargeOperations,
  ...supplyOperations,
  ...dashboardOperations,
];
