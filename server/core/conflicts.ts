import type { Queryable } from '../db/database';
import { isForeignKeyViolation, isUniqueViolation } from '../http/constraints';
import { fail } from '../http/envelope';

/**
 * Conflicts (issue 32): one caller of a state change wins, the others are answered "409". The
 * database's own refusals are mapped centrally (http/constraints.ts); here are the two helpers the
 * areas share: a clash answered in the handler's own words, and the state a document moves from,
 * read under a row lock.
 */

/**
 * Runs `work`, answering `message` as "409" when PostgreSQL reports a unique or reference clash.
 * Only where the handler's sentence is more precise than the central one (http/constraints.ts),
 * which answers every other clash.
 */
export async function conflictOnClash<T>(work: () => Promise<T>, messages: { unique?: string; reference?: string }): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (messages.unique && isUniqueViolation(error)) throw fail.conflict(messages.unique);
    if (messages.reference && isForeignKeyViolation(error)) throw fail.conflict(messages.reference);
    throw error;
  }
}

/**
 * The state a document moves from, read under a row lock inside the transaction that moves it.
 *
 * A step checks the document's state and then writes its new one; read outside the transaction, or
 * without the lock, two steps at once both see the old state and both "succeed". Read here, the
 * second caller waits for the first to commit (on PostgreSQL its serializable transaction then
 * fails and runs again) and sees the state the first left, so it is refused with the document's own
 * message, as it would be one after another.
 */

/** Documents whose `state` moves by their `code`. */
export type StatefulDocument = 'card_order' | 'card_delivery' | 'card_alter' | 'card_recharge' | 'card_renew_order' | 'mall_order' | 'mall_goods';

/** The `state` of the document `code` of `table`, locked until the transaction ends ("404" `missing` when it is gone). */
export async function lockedState(tx: Queryable, table: StatefulDocument, code: string, missing: string): Promise<string> {
  const [row] = await tx.query<{ state: string }>(`SELECT state FROM ${table} WHERE code = $1 FOR UPDATE`, [code]);
  if (!row) throw fail.notFound(missing);
  return row.state;
}
