import { CHANNEL_LABELS, CHANNEL_TYPES, type ChannelType } from '../../domain/notificationChannels';
import { fail } from '../../http/envelope';
import { isPlatformStaff, callerTenant } from '../../core/access';
import { callerOf } from '../../core/context';
import { defineOperation, type OperationDefinition } from '../../core/operation';
import { enumOf } from '../../core/params';
import { column, equals, listing, type ItemOf, textColumn, timeColumn } from '../../core/listing';

/**
 * The delivery log of the outbox's channel messages (issue 22): each message an alarm, a channel
 * test or a 消息发送 put in the outbox, its state (pending, sending, sent, failed) and every attempt
 * of the delivery loop with its outcome (server/ingest/outboxDelivery.ts). A tenant's administrator
 * sees the messages sent for the tenant, platform staff every message; anyone else "403". The
 * addresses are shown as sent: only those who configured the channels see this.
 */

/** An attempt of the delivery loop as the attempt log's JSON holds it. */
interface AttemptRow {
  attempt: number;
  outcome: string;
  error: string;
  duration_ms: number;
  attempted_at: string;
}

const DELIVERIES = listing({
  from: 'outbox o',
  // The channel messages only: a verification code's row (pending for the loop too) holds a live code nobody else may read.
  scope: async (where, context) => {
    where.add('o.delivery_state IS NOT NULL').add("o.code = ''");
    if (isPlatformStaff(context)) return;
    if (!callerOf(context).roles.includes('TENANT_ADMIN')) throw fail.forbidden();
    const tenant = await callerTenant(context);
    if (!tenant) throw fail.forbidden();
    where.add('o.tenant_code = $?', tenant);
  },
  filters: {
    channel: equals('o.channel', enumOf(CHANNEL_TYPES)),
    state: equals('o.delivery_state', enumOf(['pending', 'sending', 'sent', 'failed'])),
  },
  columns: {
    id: column<number>('o.id'),
    channel: column<ChannelType>('o.channel'),
    channelName: column('o.channel', (channel: ChannelType) => CHANNEL_LABELS[channel] ?? channel),
    target: column<string>('o.target'),
    content: column<string>('o.content'),
    tenantCode: textColumn('o.tenant_code'),
    /** pending (waiting for its next attempt), sending, sent, failed (given up). */
    state: column<string>('o.delivery_state'),
    attempts: column<number>('o.attempts'),
    nextAttemptTime: timeColumn("CASE WHEN o.delivery_state = 'pending' THEN o.next_attempt_at END"),
    deliveredTime: timeColumn('o.delivered_at'),
    lastError: column<string>('o.last_error'),
    createTime: timeColumn('o.created_at'),
    attemptLog: column(
      `COALESCE((SELECT json_agg(json_build_object('attempt', a.attempt, 'outcome', a.outcome, 'error', a.error, 'duration_ms', a.duration_ms, 'attempted_at', a.attempted_at) ORDER BY a.id)
                FROM outbox_attempt a WHERE a.outbox_id = o.id), '[]'::json)`,
      (log: AttemptRow[]) =>
        log.map((attempt) => ({
          attempt: attempt.attempt,
          outcome: attempt.outcome,
          error: attempt.error,
          durationMs: attempt.duration_ms,
          attemptTime: new Date(attempt.attempted_at).toISOString(),
        })),
    ),
  },
  sorts: { createTime: 'o.created_at' },
  fallback: 'o.id DESC',
});

/** A message of the delivery log, as the page answers it. */
export type OutboxDeliveryRecord = ItemOf<typeof DELIVERIES>;

export const deliveryPage = defineOperation('notification.delivery.page', {
  paramSchema: DELIVERIES.paramSchema,
  handler: (context) => DELIVERIES.page(context),
});

export const deliveryOperations: OperationDefinition[] = [deliveryPage];
