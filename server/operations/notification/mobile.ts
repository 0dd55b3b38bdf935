import { NOTIFICATION_TAB, type NotificationStatus, type NotificationTab } from '../../domain/notifications';
import type { Channel } from '../../domain/platformEvents';
import { defineOperation } from '../../core/operation';
import { objectOf, text } from '../../core/params';
import type { OperationContext } from '../../core/context';
import { ownNotificationPage } from '../frame/notifications';
import { sendCallerCode } from '../verification';

/**
 * The mobile app's side of notifications (SPEC §7 "Notification"): the caller's own messages of
 * both tabs in one paged list, and a phone verification code by message or by call, under the
 * same rules as every verification code (6 digits, valid 5 minutes, one per number per 60 s,
 * "sent" to the outbox) and a signed-in caller's (their own number, or the one they are binding).
 */

interface MobileFilter {
  tabType?: NotificationTab;
  notificationStatus?: NotificationStatus;
  keyword?: string;
}

export const mobilePage = defineOperation<MobileFilter>('notification.mobile.page', {
  paramSchema: objectOf({
    tabType: { type: 'integer', enum: [NOTIFICATION_TAB.daily, NOTIFICATION_TAB.system] },
    notificationStatus: { type: 'string', enum: ['0', '1'] },
    keyword: text(64),
  }),
  handler: (context) => ownNotificationPage(context, context.param.tabType),
});

/**
 * A code for the signed-in caller's phone (the app's own phone checks) or the number they are
 * binding, by SMS or by voice call: the signed-in caller's code rules (server/operations/verification.ts).
 */
const sendPhoneCode = (context: OperationContext<string>, channel: Channel): Promise<string> => sendCallerCode(context, channel, context.param);

export const phoneCodeSms = defineOperation<string, string>('notification.phoneCode.sms', {
  paramSchema: text(32),
  handler: (context) => sendPhoneCode(context, 'sms'),
});

export const phoneCodeCall = defineOperation<string, string>('notification.phoneCode.call', {
  paramSchema: text(32),
  handler: (context) => sendPhoneCode(context, 'voice'),
});

export const mobileOperations = [mobilePage, phoneCodeSms, phoneCodeCall];
