import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const contracts = fileURLToPath(new URL('./packages/contracts/src/index.ts', import.meta.url));
const simulator = fileURLToPath(new URL('./apps/simulator/src/index.ts', import.meta.url));

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
      {
        extends: true,
        test: {
          name: 'server-sqlite',
          include: ['apps/server/src/**/*.test.ts'],
          environment: 'node',
          env: { TEST_DB: 'sqlite' },
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server-postgres',
          include: ['apps/server/src/**/*.test.ts'],
          environment: 'node',
          env: { TEST_DB: 'postgres' },
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          testTimeout: 20_000,
        },
      },
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
          fileParallelism: false,
        },
      },
    ],
  },
});
