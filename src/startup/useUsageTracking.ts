import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { useOperationMutation } from '../api/data';
import { readSession } from '../session/storage';

/** The query parameters that never leave the browser in a usage record. */
const PRIVATE_PARAMETERS = ['dlmToken', 'token'];

/** The usage record of SPEC §7 ("Usage message save"). */
export interface UsageMessage {
  actionType: 'didPush';
  /** When the page was entered (ms since the epoch). */
  activeTime: number;
  /** '' or the page's query parameters as JSON text. */
  extraItem: string;
  /** Milliseconds spent on the previous page (0 for the first). */
  pendingTime: number;
  platform: 'web';
  usageUrl: string;
}

export function extraItemOf(search: string): string {
  const parameters = Object.fromEntries([...new URLSearchParams(search)].filter(([name]) => !PRIVATE_PARAMETERS.includes(name)));
  return Object.keys(parameters).length ? JSON.stringify(parameters) : '';
}

/**
 * Saves a usage record on every route change, fire-and-forget: a mutation that handles its own
 * failure (it tells nobody), never awaited, so a slow or failing server never holds up navigation.
 * Call it inside the main frame.
 */
export function useUsageTracking(): void {
  const { pathname, search } = useLocation();
  const enteredAt = useRef<number | null>(null);
  const { mutate: save } = useOperationMutation('usage.message.save', { handlesErrors: true });

  useEffect(() => {
    const activeTime = Date.now();
    const pendingTime = enteredAt.current === null ? 0 : activeTime - enteredAt.current;
    enteredAt.current = activeTime;
    if (!readSession('accessToken')) return;
    const message: UsageMessage = { actionType: 'didPush', activeTime, extraItem: extraItemOf(search), pendingTime, platform: 'web', usageUrl: pathname };
    save(message);
  }, [pathname, search, save]);
}
