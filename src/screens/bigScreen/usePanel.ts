import { useEffect, useState } from 'react';

/** One panel's data: loading only until the first answer, the last good data kept on refresh. */
export interface PanelState<T> {
  data: T | null;
  loading: boolean;
  /** The last load's failure (the data, if any, is from an earlier load). */
  error: string | null;
}

/**
 * Loads a panel's data now and again whenever `tick` changes (the board's refresh). `load` must be
 * stable (a module-level function). Each panel fails on its own: one failing call never blanks
 * the board.
 */
export function usePanel<T>(load: (signal: AbortSignal) => Promise<T>, tick: number): PanelState<T> {
  const [state, setState] = useState<PanelState<T>>({ data: null, loading: true, error: null });
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal)
      .then((data) => {
        if (!controller.signal.aborted) setState({ data, loading: false, error: null });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        const message = error instanceof Error ? error.message : String(error);
        setState((previous) => ({ data: previous.data, loading: false, error: message }));
      });
    return () => controller.abort();
  }, [load, tick]);
  return state;
}
