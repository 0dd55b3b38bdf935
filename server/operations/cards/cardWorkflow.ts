import type { Queryable, SqlParam } from '../../db/database';
import { bind } from '../../db/parameters';
import { requireState } from '../../domain/cards';
import { fail } from '../../http/envelope';
import type { OperationContext } from '../../core/context';
import { lockedState, type StatefulDocument } from '../../core/conflicts';

/**
 * The steps of a card document (card order, delivery, replacement, recharge, renewal order), as
 * every one of them is taken: the document is found within the caller's scope ("404"), its state
 * must allow the step ("409" 当前状态（…）不允许…), and in the transaction that takes the step the
 * state is read again under the row's lock (core/conflicts.ts), so of two callers at once the
 * second is refused in the same words. The state moves by a conditional UPDATE; where the step
 * asks, a move that found the document moved already is "409" in the document's own words.
 */

/** What a workflow reads of its document. */
interface CardDocument<S extends string> {
  code: string;
  state: S;
}

interface CardDocumentKind<S extends string, D extends CardDocument<S>> {
  table: StatefulDocument;
  /** The states' names, for the refusal. */
  labels: Readonly<Record<S, string>>;
  /** "404" when the document is gone (or another tenant's). */
  missing: string;
  /** "409" when a move finds the document moved by another caller. */
  changed: string;
  /** The document within the caller's scope ("404" `missing` otherwise). */
  find: (context: OperationContext<unknown>, code: string) => Promise<D>;
}

/** A move of the state: from one of `from` to `to`, writing `set` (column → value) with it. */
interface StateMove<S extends string> {
  from: readonly S[];
  to: S;
  set?: Readonly<Record<string, SqlParam>>;
  /** "409" `changed` when the document was no longer in `from`. */
  refuseMoved?: boolean;
}

export function cardWorkflow<S extends string, D extends CardDocument<S>>(kind: CardDocumentKind<S, D>) {
  /** "409" unless the document, as read, is in one of the states `allowed` may start from. */
  const require = (document: D, allowed: readonly S[], action: string): void => requireState(document.state, allowed, kind.labels, action);

  /** Checks the step as read, then runs `work` in a transaction that checks it again under the lock. */
  async function take<T>(context: OperationContext<unknown>, document: D, allowed: readonly S[], action: string, work: (tx: Queryable) => Promise<T>): Promise<T> {
    require(document, allowed, action);
    return context.db.transaction(async (tx) => {
      requireState(await lockedState(tx, kind.table, document.code, kind.missing), allowed, kind.labels, action);
      return work(tx);
    });
  }

  return {
    find: kind.find,
    require,
    take,

    /** Finds the document `code`, takes the step on it and answers it as it stands after. */
    async step(context: OperationContext<unknown>, code: string, allowed: readonly S[], action: string, work: (tx: Queryable, document: D) => Promise<unknown>): Promise<D> {
      const document = await kind.find(context, code);
      await take(context, document, allowed, action, (tx) => work(tx, document));
      return kind.find(context, document.code);
    },

    /** Moves the state of the document `code` (see {@link StateMove}). */
    async move(tx: Queryable, code: string, move: StateMove<S>): Promise<void> {
      const params: SqlParam[] = [];
      const columns = [`state = ${bind(params, move.to)}`, ...Object.entries(move.set ?? {}).map(([column, value]) => `${column} = ${bind(params, value)}`)];
      const moved = await tx.query(
        `UPDATE ${kind.table} SET ${columns.join(', ')} WHERE code = ${bind(params, code)} AND state = ANY(${bind(params, [...move.from])}::text[])${move.refuseMoved ? ' RETURNING code' : ''}`,
        params,
      );
      if (move.refuseMoved && moved.length === 0) throw fail.conflict(kind.changed);
    },
  };
}
