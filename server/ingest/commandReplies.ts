import { Ajv } from 'ajv';
import type { Database } from '../db/database';
import type { ReplyOutcome } from '../domain/platformEvents';
import { recordCommandChanges, type CommandChange } from './commandDelivery';
import { nestsDeeperThan } from './reportChecks';

/**
 * A device's answer to a command (issue 31), on `devices/<code>/commands/reply` or
 * `POST /api/device/commands/_reply`: `{"id": <number>, "result": "ok" | "failed", "message"?: "…",
 * "data"?: {…}}`. It settles the command once, conditionally: `acknowledged` (ok) or `failed`, if
 * the command is the device's own, out (sent, or published and its PUBACK on its way) and not
 * expired. Anything else changes nothing and is counted: a reply that is not one (malformed), an id
 * that is no command of this device (unknown command: another device's is answered the same), or
 * a command already settled or expired (late).
 */

export interface CommandReply {
  id: number;
  result: 'ok' | 'failed';
  message?: string;
  data?: Record<string, unknown>;
}

/** The largest reply a device may send (bytes), as a report. */
export const REPLY_BODY_LIMIT = 16 * 1024;
/** `{"data": {…}}` nests a few levels at most. */
const MAX_REPLY_DEPTH = 4;

export const REPLY_MESSAGES: Record<Exclude<ReplyOutcome, 'acknowledged' | 'failed'>, string> = {
  malformed: '回复内容不符合要求',
  'unknown command': '指令不存在',
  late: '指令已结束或已过期',
};

export class ReplyRefused extends Error {
  constructor(readonly outcome: Exclude<ReplyOutcome, 'acknowledged' | 'failed'>) {
    super(REPLY_MESSAGES[outcome]);
    this.name = 'ReplyRefused';
  }
}

const REPLY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'result'],
  properties: {
    id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
    result: { enum: ['ok', 'failed'] },
    message: { type: 'string', maxLength: 500 },
    data: { type: 'object', maxProperties: 32 },
  },
} as const;

const validReply = new Ajv({ allErrors: false }).compile<CommandReply>(REPLY_SCHEMA);

/** Parses and checks a reply; malformed when it is too large, too deep, not JSON or not of the format. */
export function parseCommandReply(body: Buffer | string): CommandReply {
  if (Buffer.byteLength(body) > REPLY_BODY_LIMIT) throw new ReplyRefused('malformed');
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (nestsDeeperThan(text, MAX_REPLY_DEPTH)) throw new ReplyRefused('malformed');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ReplyRefused('malformed');
  }
  if (!validReply(value)) throw new ReplyRefused('malformed');
  return value;
}

/** A settled command: its id and its state now. */
export interface SettledCommand {
  id: number;
  state: 'acknowledged' | 'failed';
}

/**
 * Settles the command a device's reply names, in one conditional statement (of two replies, or a
 * reply and the expiry, one wins). Throws ReplyRefused (unknown command, late) when it changes
 * nothing.
 */
export async function settleCommand(db: Database, deviceId: number, reply: CommandReply, now: Date): Promise<SettledCommand> {
  const state = reply.result === 'ok' ? 'acknowledged' : 'failed';
  const settled = await db.transaction(async (tx) => {
    const changed = await tx.query<CommandChange>(
      `UPDATE device_command c SET state = $3, result = $4, reply_message = $5, reply_data = $6, replied_at = $7, sent_at = COALESCE(c.sent_at, $7),
              claimed_by = NULL, claimed_until = NULL
         FROM device d
        WHERE c.id = $1 AND c.device_id = $2 AND d.id = c.device_id AND c.expires_at > $7
          AND (c.state = 'sent' OR (c.state = 'pending' AND c.claimed_by IS NOT NULL))
       RETURNING c.id, c.state, d.code, d.tenant_code, d.organization_code`,
      [reply.id, deviceId, state, reply.result, reply.message ?? null, reply.data === undefined ? null : JSON.stringify(reply.data), now],
    );
    await recordCommandChanges(tx, changed, now);
    return changed.length > 0;
  });
  if (settled) return { id: reply.id, state };
  const [command] = await db.query<{ device_id: number }>('SELECT device_id FROM device_command WHERE id = $1', [reply.id]);
  // Another device's command is answered as one that does not exist: a device learns nothing of the others'.
  throw new ReplyRefused(command?.device_id === deviceId ? 'late' : 'unknown command');
}
