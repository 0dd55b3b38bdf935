import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { pageValidatorPlugin } from './scripts/pageValidatorPlugin.ts';

// Three suites, one run: console units in a DOM, the reference server against a real
// in-memory PGlite (seeded once per run, see tests/server/global-setup.ts), and the
// catalogue contract.
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: on the 2-core machines this project runs
    // on, that is one worker, and the suite (mostly PGlite work in the server files) took twice as long.
    maxWorkers: Math.max(2, availableParallelism()),
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
          // The files share one worker's module graph (Fastify, the operations, PGlite's WASM): each
          // builds its own server on its own copy of the database, so there is no state to leak.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'contract',
          include: ['tests/contract/**/*.test.ts'],
          environment: 'node',
          // One file at a time: new:page's test writes a scaffold under schemas/pages while the
          // bundle test builds the console from that folder.
          fileParallelism: false,
        },
      },
    ],
  },
});
