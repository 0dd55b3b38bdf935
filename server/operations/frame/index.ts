import type { OperationDefinition } from '../../core/operation';
import { CARD_ORDER_OPERATIONS } from './cardOrders';
import { CONTACT_OPERATIONS } from './contacts';
import { FILE_OPERATIONS } from './files';
import { NOTIFICATION_OPERATIONS } from './notifications';
import { OPEN_API_OPERATIONS } from './openApi';
import { WEBHOOK_OPERATIONS } from './webhooks';

/** The operations of the main frame (issue 4): notifications, account changes, uploads, start-up checks. */
export const FRAME_OPERATIONS: readonly OperationDefinition[] = [
  ...NOTIFICATION_OPERATIONS,
  ...CONTACT_OPERATIONS,
  ...FILE_OPERATIONS,
  ...OPEN_API_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
  ...CARD_ORDER_OPERATIONS,
];
