import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { pageComposePlugin } from './scripts/pageComposePlugin.ts';
import { pageValidatorPlugin } from './scripts/pageValidatorPlugin.ts';

// Three suites, one run: console units in a DOM, the reference server against a real
// in-memory PGlite (seeded once per run, see tests/server/global-setup.ts), and the
// catalogue contract.
/** Server test files about the embedded engine itself (its event-loop turns, its dumps, its backups). */
const PGLITE_ONLY = ['tests/server/statement-turns.test.ts', 'tests/server/backup.test.ts', 'tests/server/data-permissions.test.ts'];
/** Server test files about a PostgreSQL server: ended connections, several instances on one database. */
const POSTGRES_ONLY = ['tests/server/postgres-*.test.ts'];

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: on the 2-core machines this project runs
    // on, that is one worker, and the suite (mostly PGlite work in the server files) took twice as long.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        plugins: [react(), pageComposePlugin(), pageValidatorPlugin()],
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
          exclude: POSTGRES_ONLY,
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
          name: 'server-pg',
          // The same server files on a real PostgreSQL (a throw-away cluster of Debian's binaries,
          // started by the global setup): what passes on PGlite must pass there. Files about PGlite's
          // own mechanics are left out.
          include: ['tests/server/**/*.test.ts'],
          exclude: PGLITE_ONLY,
          environment: 'node',
          globalSetup: ['tests/server/global-setup-pg.ts'],
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // The server's own zone is not the process's (the cluster's is a third one).
          env: { TZ: 'America/New_York' },
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
