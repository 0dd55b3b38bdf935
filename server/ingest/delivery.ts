import type { Database } from '../db/database';
import { startPeriodicTask } from '../periodicTask';

/**
 * Delivery after the fact (issues 22 and 23): what the platform tells the outside world — the
 * outbox's channel messages (an alarm's robot, SMS, mail… message) and the tenants' webhooks — is
 * written in the transaction that makes the change and sent afterwards by this loop, never inside
 * a report's or an operation's transaction, so an endpoint that fails or hangs cannot block or
 * slow ingestion. Each round claims the due messages in one statement (FOR UPDATE SKIP LOCKED:
 * several instances split them, none sends one twice while its claim stands), sends them at once,
 * each under a time limit, logs every attempt with its outcome, and schedules a failed one again
 * after a growing pause, up to DELIVERY_POLICY.attempts attempts; then it is given up (failed).
 * An instance that stops mid-send leaves its claim to lapse: the message is claimed again later.
 */

export interface DeliveryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  /** The pause after the 1st, 2nd… failed attempt (the last one repeats). */
  retryDelaysSeconds: readonly number[];
  /** An attempt that takes longer has failed (timed out). */
  timeoutMs: number;
  /** How long a claim stands before another round may take the message again. */
  claimSeconds: number;
  /** Messages sent at once per round and queue. */
  batch: number;
}

export const DELIVERY_POLICY: DeliveryPolicy = { attempts: 5, retryDelaysSeconds: [30, 120, 600, 1800], timeoutMs: 10_000, claimSeconds: 120, batch: 20 };

/** The pause after the `attempt`-th failed attempt (1-based). */
export function retryDelaySeconds(attempt: number, policy: DeliveryPolicy = DELIVERY_POLICY): number {
  const delays = policy.retryDelaysSeconds;
  return delays[Math.min(Math.max(attempt, 1), delays.length) - 1];
}

/** How one attempt went. `final`: do not try again (the endpoint is gone, the webhook disabled). */
export interface AttemptOutcome {
  ok: boolean;
  status: number | null;
  error: string;
  final?: boolean;
}

/** A claimed message: its id (as text: bigserial) and the attempt this is. */
export interface Claimed {
  id: string;
  attempts: number;
}

/** One queue: how its due messages are claimed, an attempt logged and a message settled. */
export interface DeliveryQueue<Row extends Claimed> {
  name: string;
  claim(db: Database, now: Date, claimUntil: Date, batch: number): Promise<Row[]>;
  send(row: Row, signal: AbortSignal): Promise<AttemptOutcome>;
  log(db: Database, row: Row, outcome: AttemptOutcome, durationMs: number, at: Date): Promise<void>;
  /** Settles the message unless another round claimed it meanwhile (its attempts moved on). */
  settle(db: Database, row: Row, state: 'sent' | 'pending' | 'failed', next: Date, outcome: AttemptOutcome, at: Date): Promise<void>;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Sends one claimed message under the time limit; a sender that ignores the abort is left behind. */
async function attempt<Row extends Claimed>(queue: DeliveryQueue<Row>, row: Row, timeoutMs: number): Promise<AttemptOutcome> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<AttemptOutcome>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ ok: false, status: null, error: `超时（${timeoutMs} ms 内无应答）` });
    }, timeoutMs);
  });
  try {
    return await Promise.race([queue.send(row, controller.signal).catch((error: unknown): AttemptOutcome => ({ ok: false, status: null, error: messageOf(error) })), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** One round of a queue: claims what is due, sends it, logs and settles each. Answers how many were tried. */
export async function runQueue<Row extends Claimed>(db: Database, queue: DeliveryQueue<Row>, now: () => Date, policy: DeliveryPolicy = DELIVERY_POLICY): Promise<number> {
  const at = now();
  const claimed = await queue.claim(db, at, new Date(at.getTime() + policy.claimSeconds * 1000), policy.batch);
  await Promise.all(
    claimed.map(async (row) => {
      const started = Date.now();
      const outcome = await attempt(queue, row, policy.timeoutMs);
      const finished = now();
      const error = outcome.error.slice(0, 500);
      const settled = { ...outcome, error };
      const state = outcome.ok ? 'sent' : outcome.final || row.attempts >= policy.attempts ? 'failed' : 'pending';
      const next = state === 'pending' ? new Date(finished.getTime() + retryDelaySeconds(row.attempts, policy) * 1000) : finished;
      await queue.log(db, row, settled, Date.now() - started, finished);
      await queue.settle(db, row, state, next, settled, finished);
    }),
  );
  return claimed.length;
}

/** How long the webhooks' deliveries and their attempts are kept. */
export const WEBHOOK_LOG_DAYS = 30;

/** Forgets the webhook deliveries older than WEBHOOK_LOG_DAYS that are settled (their attempts go with them). */
export async function pruneDeliveryLog(db: Database, now: Date): Promise<void> {
  await db.query("DELETE FROM webhook_delivery WHERE created_at < $1 AND state IN ('sent', 'failed')", [new Date(now.getTime() - WEBHOOK_LOG_DAYS * 86_400_000)]);
}

export interface DeliveryLoop {
  /** Stops the timer and waits for a round under way to finish. */
  stop(): Promise<void>;
}

/**
 * Runs the queues every `seconds` (config.deliverySeconds; 0 = never), one round of a queue at a
 * time per instance; a failed round is logged and the next one tries again. Run by the server process.
 */
export function startDeliveryLoop(db: Database, queues: ReadonlyArray<DeliveryQueue<Claimed>>, seconds: number, now: () => Date, warn: (line: string) => void): DeliveryLoop {
  if (seconds <= 0) return { stop: async () => undefined };
  // Each queue its own task: a channel that hangs until its time limit does not hold up the webhooks.
  const tasks = [
    ...queues.map((queue) => startPeriodicTask({ name: `delivery (${queue.name})`, seconds, warn }, () => runQueue(db, queue, now).then(() => undefined))),
    startPeriodicTask({ name: 'delivery: pruning the log', seconds: 3600, atStart: true, warn }, () => pruneDeliveryLog(db, now())),
  ];
  return {
    stop: async () => {
      await Promise.all(tasks.map((task) => task.stop()));
    },
  };
}
