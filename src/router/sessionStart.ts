import { useMemo } from 'react';
import { operationKey } from '../../renderers/data/keys';
import { consoleQueries } from '../api/cache';
import { useOperationQuery } from '../api/data';
import { MENU_PARAM, type SessionAnswers } from '../session/session';

/** What the route guard's start of a session stands at. */
export interface SessionStart {
  /** Init's four answers, once every one has arrived (fetched since the guard asked). */
  answers: SessionAnswers | null;
  /** One of them failed (told by the cache's policy, SPEC §8): the guard ends the session. */
  failed: boolean;
}

const INIT_KEYS = [operationKey('auth.init', {}), operationKey('resource.menu.list', MENU_PARAM), operationKey('dict.tree', {}), operationKey('organization.tree', {})];

/** Forgets init's answers (a failed start's), so nothing asks them again when the platform is back. */
export function forgetSessionStart(): void {
  for (const queryKey of INIT_KEYS) consoleQueries.removeQueries({ queryKey, exact: true });
}

/**
 * SPEC §4's "init" while `wanted` (a token and no session yet): user info, menu, dictionaries and
 * the organisation tree as queries of the console's data layer (src/api/data.ts), each asked once
 * however often the guard renders, fresh (never a copy an earlier session left), a failure told by
 * the cache. The guard makes the session of the answers (startSession); it loads nothing itself.
 */
export function useSessionStart(wanted: boolean): SessionStart {
  const options = { enabled: wanted, fresh: true } as const;
  const user = useOperationQuery('auth.init', {}, options);
  const menus = useOperationQuery('resource.menu.list', MENU_PARAM, options);
  const dictionaries = useOperationQuery('dict.tree', {}, options);
  const organizations = useOperationQuery('organization.tree', {}, options);
  const all = [user, menus, dictionaries, organizations];
  const failed = wanted && all.some((answer) => answer.error !== null);
  const arrived = wanted && !failed && all.every((answer) => !answer.loading) && user.data !== undefined;
  // One object for the same answers, so that the guard reacts to them once.
  const answers = useMemo(
    () => (arrived && user.data ? { user: user.data, menus: menus.data, dictionaries: dictionaries.data, organizations: organizations.data } : null),
    [arrived, user.data, menus.data, dictionaries.data, organizations.data],
  );
  return { answers, failed };
}
