import type { OperationDefinition } from '../define';

/** IoT SIM cards (issue 7): orders, delivery, cards, replacement, renewal, recharge, dashboards. */
export const cardOperations: OperationDefinition[] = [];
