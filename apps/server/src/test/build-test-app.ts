import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import pg from 'pg';
import { describe, inject } from 'vitest';
import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import { type Database, openPostgres, openSqlite } from '../db/database.js';

/** Which database this run of the suite uses: the vitest project sets TEST_DB. */
export const testDbKind: 'sqlite' | 'postgres' = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

export const pgUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * PostgreSQL suites are skipped when no server answers at the default address; when
 * TEST_DATABASE_URL is set explicitly (CI) they run and fail loudly if it is unreachable.
 */
const probePostgres = async (): Promise<boolean> => {
  if (process.env.TEST_DATABASE_URL) return true;
  const client = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
};

export const dbAvailable = testDbKind === 'sqlite' || (await probePostgres());

/** `describe` for suites that need the database; skipped when PostgreSQL is absent (see above). */
export const describeDb = (name: string, fn: () => void) =>
  (dbAvailable ? describe : describe.skip)(`${name} [${testDbKind}]`, fn);

/** SECRET_KEY of test apps; a test of keys passes its own. Never a key of a real deployment. */
export const testSecretKey = createHash('sha256').update('fbox-test-secret-key').digest();

/** A clock tests move by hand, so expiry, TOTP steps and rate-limit windows need no sleeping. */
export class TestClock {
  constructor(public ms = Date.UTC(2025, 0, 1, 0, 0, 0)) {}
  now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** The suite's migrated template (test/global-setup.ts); null outside a vitest server project. */
const template = () => {
  try {
    return inject('testDatabaseTemplate') ?? null;
  } catch {
    return null;
  }
};

/** One statement as the PostgreSQL superuser of the test server (create or drop a database or schema). */
export const adminQuery = async (text: string) => {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
};

/** A database copied from the template while the current test runs, for the next one. */
let prepared: Promise<string> | undefined;

/**
 * A new PostgreSQL database, copied from the run's template when there is one. Copying takes
 * ~0.45 s, so each worker copies the next test's database in the background: a database named
 * after the template, which the run's teardown drops if no test took it.
 */
const takeDatabase = async (templateName: string | null): Promise<string> => {
  const create = async () => {
    const name = `${templateName ?? 't'}_${randomBytes(6).toString('hex')}`;
    await adminQuery(
      templateName ? `create database ${name} template ${templateName}` : `create database ${name}`,
    );
    return name;
  };
  const name = await (prepared ?? create());
  prepared = templateName ? create() : undefined;
  // A failure shows when a test takes it.
  prepared?.catch(() => undefined);
  return name;
};

/**
 * A fresh, isolated database: a temp SQLite file, or a PostgreSQL database of its own dropped on
 * close. Both are copies of the run's migrated template when there is one (see global-setup).
 */
export const openTestDatabase = async (): Promise<Database> => {
  const copy = template();
  if (testDbKind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'fbox-test-'));
    const file = join(dir, 'test.db');
    if (copy?.kind === 'sqlite') copyFileSync(copy.file, file);
    const database = openSqlite(file);
    return {
      ...database,
      close: async () => {
        await database.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = await takeDatabase(copy?.kind === 'postgres' ? copy.name : null);
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  // Four connections for queries (listeners open their own). A commit does not wait for its log to
  // reach the disk: nothing here outlives a crash of the database server (processes a test kills
  // are its own), and four of the slowest files took 96 s instead of 111 s.
  const database = openPostgres(url.href, { max: 4, options: '-c synchronous_commit=off' });
  return {
    ...database,
    close: async () => {
      await database.close();
      // Dropped while the next test runs (110–230 ms a database here); the run's teardown drops
      // what a worker that ended left behind (global-setup).
      adminQuery(`drop database if exists ${name} with (force)`).catch(() => undefined);
    },
  };
};

export interface TestApp {
  app: FastifyInstance;
  clock: TestClock;
  close(): Promise<void>;
}

/** Which broker an MQTT test talks to: the embedded one, or the external one of TEST_MQTT_URL. */
export type TestBroker = 'embedded' | 'external';

/**
 * The brokers MQTT suites run against: always the embedded one, plus TEST_MQTT_URL when set — in
 * the SQLite run only. Which broker carries a message and which database stores it are independent,
 * so each pair need not run: the PostgreSQL run covers the embedded broker, and the process tests
 * (two servers on PostgreSQL behind one external broker) cover that pair.
 */
export const testBrokers: TestBroker[] =
  process.env.TEST_MQTT_URL && testDbKind === 'sqlite' ? ['embedded', 'external'] : ['embedded'];

/**
 * The real app on a fresh database, logging off, with a hand-moved clock and no master seeded.
 * `mqtt` starts the embedded broker on a free port, or connects to TEST_MQTT_URL with a shared
 * subscription group of its own (parallel runs on one Mosquitto must not steal each other's
 * messages). The job loop never runs by itself: call `app.jobs.tick()` after moving the clock.
 * Telemetry is written on the app's own thread unless `config.ingestWriterThread` says otherwise:
 * a writer thread loads its modules through tsx, about 1.5 s a test. The server processes of the
 * process tests and end-to-end tests run with it, as deployed.
 */
export const buildTestApp = async (
  options: {
    config?: Partial<Config>;
    seed?: boolean;
    mqtt?: TestBroker;
    /** Logger options (e.g. a capturing stream); logging is off by default. */
    logger?: FastifyServerOptions['logger'];
    /** A database to use instead of a fresh one (e.g. two apps on one schema); closed with the app. */
    database?: Database;
  } = {},
): Promise<TestApp> => {
  const clock = new TestClock();
  const external = options.mqtt === 'external';
  const app = await buildApp({
    database: options.database ?? (await openTestDatabase()),
    logger: options.logger ?? false,
    now: clock.now,
    seed: options.seed ?? false,
    ...(options.mqtt && { mqtt: { shareGroup: `test-${randomBytes(6).toString('hex')}` } }),
    config: {
      webDist: join(tmpdir(), 'fbox-no-web-dist'),
      demo: false,
      ingestWriterThread: false,
      // One fixed key, so apps started in turn on one database read each other's secrets.
      secretKey: testSecretKey,
      ...(options.mqtt && { mqttPort: 0, mqttPortExplicit: true, host: '127.0.0.1' }),
      // A session of its own that ends with the app, so no test leaves messages queued at the broker.
      ...(external && {
        mqttUrl: process.env.TEST_MQTT_URL,
        mqttClientId: `fbox-test-${randomBytes(6).toString('hex')}`,
        mqttSessionExpirySeconds: 0,
      }),
      ...options.config,
    },
  });
  return { app, clock, close: () => app.close() };
};

/**
 * Server instances sharing one fresh test database, as the processes of one deployment do (on
 * PostgreSQL each has its own pool); their clock is one hand-moved `TestClock`. `close` ends them
 * and the database.
 */
export const appsOnOneDatabase = async (count: number, config: Partial<Config> = {}) => {
  const database = await openTestDatabase();
  const clock = new TestClock();
  const apps: FastifyInstance[] = [];
  for (let i = 0; i < count; i++)
    apps.push(
      await buildApp({
        database: { ...database, close: async () => {} },
        logger: false,
        seed: false,
        now: clock.now,
        config: { demo: false, ingestWriterThread: false, secretKey: testSecretKey, ...config },
      }),
    );
  const close = async () => {
    for (const app of apps) await app.close();
    await database.close();
  };
  return { apps, clock, close };
};
