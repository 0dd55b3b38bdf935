import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { keyOperation } from '../../renderers/data/keys';
import { connectLive, onLiveEvent, type LiveEventKind } from './liveEvents';

/**
 * What each live event makes stale in the page cache: the operations whose names start so. An
 * alarm changes the alarm lists, boards and details (告警记录, 监控告警, 告警看板…) and 工作台's
 * figures (home.*); a device coming online or going offline changes the device lists, the boards
 * and 工作台's figures;
 * a command's progress changes the device's detail (its recent commands).
 */
export const STALE_AFTER: Readonly<Record<LiveEventKind, readonly string[]>> = {
  'alarm.raised': ['alarm.', 'monitoring.alarm.', 'dashboard.', 'home.'],
  'alarm.recovered': ['alarm.', 'monitoring.alarm.', 'dashboard.', 'home.'],
  'device.online': ['device.', 'dashboard.', 'home.'],
  'device.offline': ['device.', 'dashboard.', 'home.'],
  // A command moved on (sent, answered, expired): 设备详情's recent commands and the command's own detail.
  'command.updated': ['device.detail', 'deviceAccess.command.'],
};

/** Events arriving together refresh the pages once: a burst of alarms is one reload of a list. */
const BATCH_MS = 500;

/** Whether the cached answers of `operation` are stale after events whose prefixes are `stale`. */
export function isStaleAfterLive(operation: string, stale: ReadonlySet<string>): boolean {
  for (const prefix of stale) if (operation.startsWith(prefix)) return true;
  return false;
}

/**
 * Keeps the console up to date while a session is open in the frame: listens to the live stream
 * and marks what each event changes stale in the page cache, so every page tab that shows it
 * (hidden kept-alive ones too) loads it again without a reload. A new `scope` (another user, an
 * organisation switched to) opens the stream again for it.
 */
export function useLiveConsole(queries: QueryClient, scope: string): void {
  useEffect(() => {
    const connection = connectLive();
    const stale = new Set<string>();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const flush = () => {
      timer = null;
      const prefixes = new Set(stale);
      stale.clear();
      void queries.invalidateQueries({
        predicate: (query) => {
          const operation = keyOperation(query.queryKey);
          return operation !== undefined && isStaleAfterLive(operation, prefixes);
        },
      });
    };
    const off = onLiveEvent((event) => {
      for (const prefix of STALE_AFTER[event.kind] ?? []) stale.add(prefix);
      timer ??= setTimeout(flush, BATCH_MS);
    });
    return () => {
      off();
      connection.close();
      if (timer) clearTimeout(timer);
    };
  }, [queries, scope]);
}
