import { defineConfig } from '@playwright/test';
import { FIRST_PORT, serverUrl, WORKERS } from './tests/browser/servers';

/**
 * The browser suite runs against the built console served by the reference server (in memory),
 * one server per worker (tests/browser/fixtures.ts aims each worker at its own). The first
 * server's command builds the console once; the others wait for that build (this run's stamp).
 */
process.env.BROWSER_BUILD_STAMP ??= `${process.pid}-${Date.now()}`;
const stamp = process.env.BROWSER_BUILD_STAMP;

export default defineConfig({
  testDir: 'tests/browser',
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: '.tmp/playwright.json' }]],
  use: {
    locale: 'zh-CN',
    // The console honours prefers-reduced-motion (no antd transitions, no chart animation): the
    // tests check what the pages do, and Chromium then spends no CPU compositing slides and fades.
    reducedMotion: 'reduce',
    // A trace records a DOM snapshot at every action, whether the test then fails or not: on CI,
    // where nobody can open one, that is only time (the run must stay under 30 minutes).
    trace: process.env.CI ? 'off' : { mode: 'retain-on-failure', screenshots: false, snapshots: true },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: Array.from({ length: WORKERS }, (_, index) => ({
    command: `node scripts/browser-server.mjs --port ${FIRST_PORT + index} --stamp ${stamp}${index === 0 ? ' --build' : ''}`,
    url: `${serverUrl(index)}/login`,
    reuseExistingServer: false,
    timeout: 300_000,
    stdout: (process.env.BROWSER_SERVER_LOG ? 'pipe' : 'ignore') as 'pipe' | 'ignore',
    stderr: 'pipe' as const,
  })),
});
