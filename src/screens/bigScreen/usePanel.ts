import type { Loaded } from '../../api/data';

/** One panel's data: loading only until the first answer, the last good data kept on refresh. */
export interface PanelState<T> {
  data: T | null;
  loading: boolean;
  /** The last load's failure (the data, if any, is from an earlier load). */
  error: string | null;
}

/**
 * A panel's state from its query (src/api/data.ts, polled by refetchInterval and handling its own
 * errors): each panel fails on its own, in its place; one failing call never blanks the board.
 */
export function panelOf<T>(query: Loaded<T>): PanelState<T> {
  return { data: query.data ?? null, loading: query.loading, error: query.error };
}
