import type { ChannelType } from '../domain/notificationChannels';
import type { AttemptOutcome, Claimed, DeliveryQueue } from './delivery';

/**
 * The outbox's messages (notificationChannels.ts deliver: an alarm's notices, a channel's test send,
 * a 消息发送; and the verification codes, security/verification.ts issueCode) are sent by the
 * delivery loop (delivery.ts) through a channel transport, with retries and a delivery log
 * (outbox_attempt): the outbox itself (outboxTransport, the default), or the real transports
 * (server/ingest/channels/, CHANNEL_DELIVERY=send), which read the settings and secrets of the
 * channel a row names when they send.
 */

export interface ChannelMessage {
  id: number;
  channel: ChannelType;
  /** A phone, a mail, an openId, or a robot's webhook. */
  target: string;
  content: string;
  /** The channel configuration (发送配置) it was written for; null for a verification code (or a channel deleted since). */
  channelId: number | null;
  /** A verification code's code; '' for a channel message. */
  code: string;
  createdAt: Date;
}

/** Sends one channel message; throws (or answers ok: false) when the channel refused it. */
export type ChannelTransport = (message: ChannelMessage, signal: AbortSignal) => Promise<AttemptOutcome>;

/**
 * The transport when nothing is to leave the machine (CHANNEL_DELIVERY=outbox, the default): the
 * outbox row is the delivery, so every attempt succeeds at once.
 */
export const outboxTransport: ChannelTransport = async () => ({ ok: true, status: null, error: '' });

type OutboxRow = Claimed & Omit<ChannelMessage, 'id' | 'createdAt' | 'channelId'> & { created_at: Date; channel_id: number | null };

export function outboxQueue(transport: ChannelTransport): DeliveryQueue<OutboxRow> {
  return {
    name: 'outbox',
    claim: (db, now, claimUntil, batch) =>
      db.query<OutboxRow>(
        `UPDATE outbox SET delivery_state = 'sending', attempts = attempts + 1, next_attempt_at = $2
          WHERE id IN (SELECT id FROM outbox WHERE delivery_state IN ('pending', 'sending') AND next_attempt_at <= $1
                        ORDER BY next_attempt_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
          RETURNING id::text AS id, attempts, channel, target, content, channel_id, code, created_at`,
        [now, claimUntil, batch],
      ),
    send: (row, signal) =>
      transport({ id: Number(row.id), channel: row.channel, target: row.target, content: row.content, channelId: row.channel_id, code: row.code, createdAt: row.created_at }, signal),
    log: async (db, row, outcome, durationMs, at) => {
      await db.query('INSERT INTO outbox_attempt (outbox_id, attempt, outcome, error, duration_ms, attempted_at) VALUES ($1, $2, $3, $4, $5, $6)', [
        Number(row.id),
        row.attempts,
        outcome.ok ? 'sent' : 'failed',
        outcome.error,
        durationMs,
        at,
      ]);
    },
    settle: async (db, row, state, next, outcome, at) => {
      await db.query(
        `UPDATE outbox SET delivery_state = $3, next_attempt_at = $4, delivered_at = CASE WHEN $3 = 'sent' THEN $5::timestamptz ELSE NULL END, last_error = $6
          WHERE id = $1 AND attempts = $2 AND delivery_state = 'sending'`,
        [Number(row.id), row.attempts, state, next, at, outcome.error],
      );
    },
  };
}

