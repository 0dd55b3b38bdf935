import type { OperationDefinition } from '../../core/operation';
import { channelOperations } from './channels';
import { deliveryOperations } from './deliveries';
import { maintenanceOperations } from './maintenance';
import { sendingOperations } from './sending';

/**
 * Notifications (issue 6): 消息维护, 发送配置 (channels), 消息发送 and the deliveries. The mobile
 * app's message list is the caller's own notifications (frame/notifications.ts), its phone codes
 * the verification codes' (verification.ts).
 */
export const notificationOperations: OperationDefinition[] = [...maintenanceOperations, ...channelOperations, ...sendingOperations, ...deliveryOperations];
