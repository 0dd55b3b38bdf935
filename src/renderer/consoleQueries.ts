import { createDataQueryClient } from '../../renderers/data/queryClient';
import { readSession } from '../session/storage';
import { consoleStore, sessionAtom, type Session } from '../session/session';

/**
 * The console's one cache of the platform's answers, shared by every page tab: a change saved in
 * one tab refreshes what the others show of it (renderers/data/invalidation.ts).
 */
export const consoleQueries = createDataQueryClient();

/** Whose answers the cache holds: the signed-in user in the selected organisation. */
function scopeOf(session: Session | null): string {
  return session ? `${String(session.user.loginUserId)}|${readSession('orgCode') ?? ''}` : '';
}

// Answers are the caller's: another user, another organisation or no session starts an empty cache
// (a switch of organisation remounts the pages, which must not show the last organisation's rows).
let scope = scopeOf(consoleStore.get(sessionAtom));
consoleStore.sub(sessionAtom, () => {
  const next = scopeOf(consoleStore.get(sessionAtom));
  if (next === scope) return;
  scope = next;
  consoleQueries.clear();
});
