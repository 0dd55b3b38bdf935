/**
 * A task the server process runs on a timer (the upgrade clock, the offline sweep, the delivery
 * loop, the telemetry partitions): every `seconds` (0 = never), one run at a time (a tick while
 * the last run is still under way is skipped), a failed run reported through `warn` and tried again
 * at the next tick. The timer does not keep the process alive; stop() waits for a run under way.
 */
export interface PeriodicTask {
  /** Stops the timer and waits for a run under way to finish. */
  stop(): Promise<void>;
}

export interface PeriodicOptions {
  /** Named in the warning of a failed run. */
  name: string;
  seconds: number;
  /** Run once at start too, not only after the first interval. */
  atStart?: boolean;
  warn: (line: string) => void;
}

export function startPeriodicTask(options: PeriodicOptions, run: () => Promise<void>): PeriodicTask {
  if (options.seconds <= 0) return { stop: async () => undefined };
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = run()
      .catch((error: unknown) => options.warn(`${options.name}: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, options.seconds * 1000);
  timer.unref();
  if (options.atStart) tick();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
