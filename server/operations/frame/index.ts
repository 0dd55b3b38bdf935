import type { OperationDefinition } from '../../core/operation';
import { CONTACT_OPERATIONS } from './contacts';
import { FILE_OPERATIONS } from './files';
import { NOTIFICATION_OPERATIONS } from './notifications';
import { OPEN_API_OPERATIONS } from './openApi';
import { WEBHOOK_OPERATIONS } from './webhooks';

/** The operations of the main frame (issue 4): notifications, account changes, uploads, the open API, webhooks. */
export const FRAME_OPERATIONS: readonly OperationDefinition[] = [
  ...NOTIFICATION_OPERATIONS,
  ...CONTACT_OPERATIONS,
  ...FILE_OPERATIONS,
  ...OPEN_API_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
];
