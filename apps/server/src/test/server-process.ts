import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../app.js';
import { type Database, openPostgres, openSqlite } from '../db/database.js';
import { adminQuery, pgUrl, testDbKind, testSecretKey } from './build-test-app.js';

export { adminQuery };

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const serverMain = join(repoRoot, 'apps/server/src/main.ts');

/** A TCP port nobody listens on right now. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

/**
 * A database that outlives one server process, for tests that run the real server as a child
 * process: a SQLite file in `dir`, or a PostgreSQL schema of its own (the suite's `TEST_DB`).
 * `env` points a server process at it; `open` gives the test its own connection; `drop` removes it.
 */
export const processDatabase = async (dir: string) => {
  if (testDbKind === 'sqlite') {
    const file = join(dir, 'fbox.db');
    return {
      env: {} as Record<string, string>,
      open: (): Database => openSqlite(file),
      drop: async () => {},
    };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create schema ${schema}`);
  const url = new URL(pgUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    env: { DATABASE_URL: url.href } as Record<string, string>,
    open: (): Database => openPostgres(pgUrl, { options: `-c search_path=${schema}`, max: 2 }),
    drop: () => adminQuery(`drop schema if exists ${schema} cascade`),
  };
};

/** Migrates the database and lets `seed` fill it through the real services, then closes the app. */
export const seedDatabase = async <T>(
  database: Database,
  dir: string,
  seed: (app: Awaited<ReturnType<typeof buildApp>>) => Promise<T>,
): Promise<T> => {
  const app = await buildApp({
    database: { ...database, close: async () => {} },
    logger: false,
    seed: false,
    config: { demo: false, webDist: join(dir, 'no-web'), dataDir: dir, secretKey: testSecretKey },
  });
  try {
    return await seed(app);
  } finally {
    await app.close();
  }
};

/** A real server process (`main.ts` through tsx); its output is kept for failure messages. */
export interface ServerProcess {
  child: ChildProcess;
  output: string[];
  exited: Promise<void>;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/**
 * Starts `main.ts` with the test's environment on top of a clean one: no demo, no web build,
 * logging at `warn` unless told otherwise, and none of the caller's database or MQTT settings.
 */
export const startServerProcess = (env: Record<string, string>, dir: string): ServerProcess => {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['MQTT_URL', 'DATABASE_URL', 'TEST_DB', 'PORT', 'MQTT_PORT']) delete base[key];
  const child = spawn(process.execPath, ['--import', 'tsx', serverMain], {
    cwd: repoRoot,
    env: {
      ...base,
      DATA_DIR: dir,
      DEMO: '0',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      WEB_DIST: join(dir, 'no-web'),
      // The key the seeding app sealed the stored secrets with.
      SECRET_KEY: testSecretKey.toString('hex'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (d: Buffer) => void output.push(d.toString()));
  child.stderr?.on('data', (d: Buffer) => void output.push(d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output,
    exited,
    kill: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
};
