import type { Database } from './db/database';
import { settleActiveTasks } from './operations/devices/upgradeProgress';
import { startPeriodicTask } from './periodicTask';

export interface UpgradeClock {
  /** Stops the timer and waits for a settle under way to finish. */
  stop(): Promise<void>;
}

/**
 * Moves the firmware upgrades in progress along on a timer: at start, then every `seconds`
 * (config.upgradeProgressSeconds), every unfinished task of every tenant is brought up to now
 * (operations/devices/upgradeProgress.ts). A list of tasks reads what the clock last wrote instead
 * of settling thousands of devices per page view. One run at a time; a failed run is logged and the
 * next one tries again (server/periodicTask.ts). Several instances on one PostgreSQL may each run it: the writes are
 * conditional on the state they read, so the same outcome is written once.
 */
export function startUpgradeClock(db: Database, seconds: number, now: () => Date, warn: (message: string) => void): UpgradeClock {
  return startPeriodicTask({ name: 'upgrade clock', seconds, atStart: true, warn }, () => settleActiveTasks(db, now()).then(() => undefined));
}
