import type { OperationDefinition } from '../../core/operation';
import { addressOperations } from './addresses';
import { discountOperations } from './discounts';
import { goodsOperations } from './goods';
import { invoiceOperations } from './invoices';
import { orderOperations } from './orders';

/**
 * The online mall (issue 7): goods and discounts (the platform's), a tenant's addresses, orders
 * from preview to receipt with their payment, tracking and IoT cards, and invoices with titles.
 */
export const mallOperations: OperationDefinition[] = [...goodsOperations, ...discountOperations, ...addressOperations, ...orderOperations, ...invoiceOperations];
