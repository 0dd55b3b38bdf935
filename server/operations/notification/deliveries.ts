import { CHANNEL_LABELS, CHANNEL_TYPES, type ChannelType } from '../../domain/notificationChannels';
import { fail } from '../../http/envelope';
import { isPlatformStaff, callerTenant } from '../../core/access';
import { callerOf } from '../../core/context';
import { defineOperation, type OperationDefinition } from '../../core/operation';
import { enumOf, objectOf } from '../../core/params';
import { Conditions, pageOf, type Listing, type Page } from '../../core/listQuery';

/**
 * The delivery log of the outbox's channel messages (issue 22): each message an alarm, a channel
 * test or a 消息发送 put in the outbox, its state (pending, sending, sent, failed) and every attempt
 * of the delivery loop with its outcome (server/ingest/outboxDelivery.ts). A tenant's administrator
 * sees the messages sent for the tenant, platform staff every message; anyone else "403". The
 * addresses are shown as sent: only those who configured the channels see this.
 */

interface DeliveryRow {
  id: number;
  channel: ChannelType;
  target: string;
  content: string;
  tenant_code: string | null;
  delivery_state: string;
  attempts: number;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  last_error: string;
  created_at: Date;
  attempt_log: Array<{ attempt: number; outcome: string; error: string; duration_ms: number; attempted_at: string }>;
}

export interface OutboxDeliveryRecord {
  id: number;
  channel: ChannelType;
  channelName: string;
  target: string;
  content: string;
  tenantCode: string;
  /** pending (waiting for its next attempt), sending, sent, failed (given up). */
  state: string;
  attempts: number;
  nextAttemptTime: string;
  deliveredTime: string;
  lastError: string;
  createTime: string;
  attemptLog: Array<{ attempt: number; outcome: string; error: string; durationMs: number; attemptTime: string }>;
}

const listing: Listing<DeliveryRow, OutboxDeliveryRecord> = {
  from: 'outbox o',
  columns: `o.id, o.channel, o.target, o.content, o.tenant_code, o.delivery_state, o.attempts, o.next_attempt_at, o.delivered_at, o.last_error, o.created_at,
    COALESCE((SELECT json_agg(json_build_object('attempt', a.attempt, 'outcome', a.outcome, 'error', a.error, 'duration_ms', a.duration_ms, 'attempted_at', a.attempted_at) ORDER BY a.id)
                FROM outbox_attempt a WHERE a.outbox_id = o.id), '[]'::json) AS attempt_log`,
  sorts: { createTime: 'o.created_at' },
  fallback: 'o.id DESC',
  record: (row) => ({
    id: row.id,
    channel: row.channel,
    channelName: CHANNEL_LABELS[row.channel] ?? row.channel,
    target: row.target,
    content: row.content,
    tenantCode: row.tenant_code ?? '',
    state: row.delivery_state,
    attempts: row.attempts,
    nextAttemptTime: row.delivery_state === 'pending' && row.next_attempt_at ? row.next_attempt_at.toISOString() : '',
    deliveredTime: row.delivered_at?.toISOString() ?? '',
    lastError: row.last_error,
    createTime: row.created_at.toISOString(),
    attemptLog: row.attempt_log.map((attempt) => ({
      attempt: attempt.attempt,
      outcome: attempt.outcome,
      error: attempt.error,
      durationMs: attempt.duration_ms,
      attemptTime: new Date(attempt.attempted_at).toISOString(),
    })),
  }),
};

export const deliveryPage = defineOperation('notification.delivery.page', {
  paramSchema: objectOf({ channel: enumOf(CHANNEL_TYPES), state: enumOf(['pending', 'sending', 'sent', 'failed']) }),
  async handler(context): Promise<Page<OutboxDeliveryRecord>> {
    // The channel messages only: a verification code's row (pending for the loop too) holds a live code nobody else may read.
    const where = new Conditions().add('o.delivery_state IS NOT NULL').add("o.code = ''");
    if (!isPlatformStaff(context)) {
      if (!callerOf(context).roles.includes('TENANT_ADMIN')) throw fail.forbidden();
      const tenant = await callerTenant(context);
      if (!tenant) throw fail.forbidden();
      where.add('o.tenant_code = $?', tenant);
    }
    where.when(context.param.channel, 'o.channel = $?').when(context.param.state, 'o.delivery_state = $?');
    return pageOf(context, listing, where);
  },
});

export const deliveryOperations: OperationDefinition[] = [deliveryPage];
