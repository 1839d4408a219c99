import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const contracts = fileURLToPath(new URL('./packages/contracts/src/index.ts', import.meta.url));
const simulator = fileURLToPath(new URL('./apps/simulator/src/index.ts', import.meta.url));

/**
 * The server suite on one database. Its files share their worker's modules (`isolate: false`):
 * each file builds its own apps on its own databases and no server module keeps per-test state, so
 * importing the app's module graph once per worker instead of once per file halved the suites' time.
 */
const serverSuite = (db: 'sqlite' | 'postgres') => ({
  extends: true,
  test: {
    name: `server-${db}`,
    include: ['apps/server/src/**/*.test.ts'],
    environment: 'node',
    env: { TEST_DB: db },
    globalSetup: ['apps/server/src/test/global-setup.ts'],
    setupFiles: ['apps/server/src/test/setup.ts'],
    isolate: false,
    testTimeout: 20_000,
  },
});

/**
 * One runner for the whole repository. The server suite runs twice: on SQLite and on PostgreSQL
 * (skipped when no PostgreSQL answers and TEST_DATABASE_URL is unset; CI sets it, so CI runs both).
 */
export default defineConfig({
  resolve: { alias: { '@fbox/contracts': contracts, '@fbox/simulator': simulator } },
  test: {
    // Vitest's default in a run is one worker fewer than the CPUs: one on a 2-core CI machine. The
    // server suites mostly wait on PostgreSQL, MQTT and child processes, so three share two cores.
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        test: { name: 'contracts', include: ['packages/contracts/src/**/*.test.ts'], environment: 'node' },
      },
      serverSuite('sqlite'),
      serverSuite('postgres'),
      {
        extends: true,
        test: { name: 'simulator', include: ['apps/simulator/src/**/*.test.ts'], environment: 'node' },
      },
      'apps/web/vitest.config.ts',
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/specs/**/*.e2e.ts'],
          environment: 'node',
          testTimeout: 90_000,
          hookTimeout: 120_000,
          // After the other suites (group 0), two files at a time: each starts a server of its own
          // on free ports and spends most of its time waiting for the demo's reports.
          sequence: { groupOrder: 1 },
          maxWorkers: 2,
        },
      },
    ],
  },
});
