import type { OperationDefinition } from '../../core/operation';
import { channelOperations } from './channels';
import { deliveryOperations } from './deliveries';
import { maintenanceOperations } from './maintenance';
import { mobileOperations } from './mobile';
import { sendingOperations } from './sending';

/** Notifications (issue 6): 消息维护, 发送配置 (channels), 消息发送, and the mobile app's message list and phone codes. */
export const notificationOperations: OperationDefinition[] = [...maintenanceOperations, ...channelOperations, ...sendingOperations, ...mobileOperations, ...deliveryOperations];
