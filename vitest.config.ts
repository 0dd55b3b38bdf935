import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { pageValidatorPlugin } from './scripts/pageValidatorPlugin.ts';

// Three suites, one run: console units in a DOM, the reference server against a real
// in-memory PGlite (seeded once per run, see tests/server/global-setup.ts), and the
// catalogue contract.
export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react(), pageValidatorPlugin()],
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['tests/unit/setup.ts'],
          // antd tables and popups render slowly in happy-dom on a 2-core machine.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/server/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'contract',
          include: ['tests/contract/**/*.test.ts'],
          environment: 'node',
        },
      },
    ],
  },
});
