import { defineConfig } from '@playwright/test';

/** The browser suite runs against the built console served by the reference server (in memory). */
export const BROWSER_TEST_PORT = Number(process.env.BROWSER_TEST_PORT ?? 4310);
const baseURL = `http://127.0.0.1:${BROWSER_TEST_PORT}`;

export default defineConfig({
  testDir: 'tests/browser',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: '.tmp/playwright.json' }]],
  use: {
    baseURL,
    locale: 'zh-CN',
    trace: 'retain-on-failure',
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
  webServer: {
    command: `node_modules/.bin/vite build --logLevel warn && node_modules/.bin/tsx server/main.ts --memory --dev --static dist --host 127.0.0.1 --port ${BROWSER_TEST_PORT}`,
    url: `${baseURL}/login`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
