// The browser suite's servers: one reference server (in memory) per Playwright worker, so a test
// that resets or changes the platform never meets another worker's test.
export const FIRST_PORT = Number(process.env.BROWSER_TEST_PORT ?? 4310);
export const WORKERS = Math.max(1, Number(process.env.BROWSER_TEST_WORKERS ?? 2));

/** The server of the worker with this parallel index (0 … WORKERS - 1). */
export function serverUrl(parallelIndex: number): string {
  return `http://127.0.0.1:${FIRST_PORT + parallelIndex}`;
}
