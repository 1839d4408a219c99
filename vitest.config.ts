import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const contracts = fileURLToPath(new URL('./packages/contracts/src/index.ts', import.meta.url));
const simulator = fileURLToPath(new URL('./apps/simulator/src/index.ts', import.meta.url));
const collector = fileURLToPath(new URL('./apps/collector/src/index.ts', import.meta.url));

/** Projects in the order their files are queued (web late: queued first, AlertRulesPage's React work twice outlived its jsdom). */
const projectOrder = [
  'contracts',
  'simulator',
  'collector',
  'server-postgres',
  'server-sqlite',
  'web',
  'e2e',
];
/** Server files that wait on processes of their own (crashes, restarts, an outage): long whatever their size. */
const processTest = /(crash|processes|outage)\.test\.ts$/;

/**
 * Orders the queue for a short run on a clean checkout (no timing cache): a project's files stay
 * together, so a server worker keeps its modules from one file to the next (a worker is kept only
 * while the next file is of its project); in a project, the process tests, then the larger files
 * first, so no long file starts last and holds up the run alone.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const weight = (spec: TestSpecification) =>
      (processTest.test(spec.moduleId) ? 1e9 : 0) + statSync(spec.moduleId).size;
    const rank = (spec: TestSpecification) => projectOrder.indexOf(spec.project.name);
    return [...files].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        rank(a) - rank(b) ||
        weight(b) - weight(a),
    );
  }
}

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
    // A hook building an app with its fixtures (migrations, several accounts) outlasted 10 s on PostgreSQL
    // while the machine was busy.
    hookTimeout: 30_000,
  },
});

/**
 * One runner for the whole repository. The server suite runs twice: on SQLite and on PostgreSQL
 * (skipped when no PostgreSQL answers and TEST_DATABASE_URL is unset; CI sets it, so CI runs both).
 */
export default defineConfig({
  resolve: {
    alias: { '@fbox/contracts': contracts, '@fbox/simulator': simulator, '@fbox/collector': collector },
  },
  test: {
    sequence: { sequencer: LongestFirst },
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
      {
        extends: true,
        test: { name: 'collector', include: ['apps/collector/src/**/*.test.ts'], environment: 'node' },
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
          // A page on a loaded machine can take seconds to show what a click changed; vitest's
          // default of 1 s made such polls flaky. Polls that wait on the demo name longer timeouts.
          expect: { poll: { timeout: 10_000, interval: 100 } },
          // After the other suites (group 0), two files at a time: each starts a server of its own
          // on free ports and spends most of its time waiting for the demo's reports.
          sequence: { groupOrder: 1 },
          maxWorkers: 2,
        },
      },
    ],
  },
});
