import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresDialect,
  type QueryResult,
  RawNode,
  SelectQueryNode,
  type SqliteDatabase,
  SqliteDialect,
  sql,
  type TransactionSettings,
} from 'kysely';
import pg from 'pg';
import { yieldToLoop } from '../lib/event-loop.js';
import { siblingModule, startWorker } from '../lib/worker-thread.js';
import { analyzeIndex } from './analyze.js';
import type { DB } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

/** What a `listen` caller hears: each notification, and whether it is listening at all. */
export interface ListenHandlers {
  /** A notification and its payload ('' when it had none). */
  onNotify(payload: string): void;
  /** False from the start until LISTEN succeeded, and whenever the connection is lost. */
  onListening(listening: boolean): void;
}

/** An open database: the query builder, its dialect, and how to close it. */
export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  close(): Promise<void>;
  /**
   * PostgreSQL only: hears NOTIFY on `channel` (an identifier) on a connection of its own,
   * reconnecting after a loss. Stops when the database closes.
   */
  listen?(channel: string, handlers: ListenHandlers): void;
  /** PostgreSQL only: NOTIFY on `channel` with a payload under 8000 bytes. */
  notify?(channel: string, payload: string): Promise<void>;
  /** Where another thread opens the same database with a connection of its own. */
  address: DatabaseAddress;
  /** SQLite only: this process's turn to write to the file (see `WriteGate`). */
  writeGate?: WriteGate;
}

/** A database as another thread opens it: a SQLite file, or a PostgreSQL URL with its `options`. */
export type DatabaseAddress =
  | { dialect: 'sqlite'; file: string }
  | { dialect: 'postgres'; url: string; options: string | undefined };

/**
 * Opens the database at `address` for a thread that writes in transactions beside this process's
 * own connection (the ingest writer thread): SQLite transactions begin by taking the write lock;
 * PostgreSQL gets a pool of `max` connections.
 */
export const openAddress = (address: DatabaseAddress, { max = 2 }: { max?: number } = {}): Database =>
  address.dialect === 'sqlite'
    ? openSqlite(address.file, { immediate: true })
    : openPostgres(address.url, { max, options: address.options });

/** Builds a row object from better-sqlite3's raw array of a statement's columns. */
type RowBuilder = (values: unknown[]) => Record<string, unknown>;

/**
 * A function returning `{ [name]: values[i], … }` for these column names. better-sqlite3 builds
 * each row object natively property by property, which cost twice the time of reading the values
 * as an array (50 miner rows: ~350 µs against ~170 µs); an object literal of one fixed shape is
 * cheap for V8. Keys are computed (`["__proto__"]` stays an own property); a later duplicate
 * name wins, as in better-sqlite3's own objects.
 */
const rowBuilder = (names: string[]): RowBuilder =>
  new Function(
    'v',
    `return {${names.map((name, i) => `[${JSON.stringify(name)}]: v[${i}]`).join(', ')}};`,
  ) as RowBuilder;

/** A prepared statement as Kysely uses it, reading rows as arrays (see `rowBuilder`). */
class CachedStatement {
  readonly reader: boolean;
  private readonly build: RowBuilder | undefined;

  constructor(private readonly statement: SQLite.Statement) {
    this.reader = statement.reader;
    if (this.reader) {
      statement.raw(true);
      this.build = rowBuilder(statement.columns().map((c) => c.name));
    }
  }

  /** Whether the statement is still iterating (a stream): it cannot run again until done. */
  get busy(): boolean {
    return this.statement.busy;
  }

  all(parameters: ReadonlyArray<unknown>): unknown[] {
    const rows = this.statement.all(parameters) as unknown[][];
    return this.build ? rows.map(this.build) : rows;
  }

  run(parameters: ReadonlyArray<unknown>) {
    return this.statement.run(parameters);
  }

  *iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    const build = this.build;
    for (const row of this.statement.iterate(parameters) as IterableIterator<unknown[]>)
      yield build ? build(row) : row;
  }
}

/**
 * better-sqlite3 behind Kysely with prepared statements kept by SQL text. Kysely's SQLite driver
 * prepares every query anew, and parsing and planning the same few dozen statements was a visible
 * share of a list request's CPU; a statement is reused unless it is still iterating (a stream).
 * Least recently used statements beyond `max` are dropped (IN lists make many distinct texts).
 */
export const cachingStatements = (sqlite: SQLite.Database, max = 500): SqliteDatabase => {
  const cache = new Map<string, CachedStatement>();
  return {
    close: () => {
      cache.clear();
      sqlite.close();
    },
    prepare: (text) => {
      const cached = cache.get(text);
      if (cached && !cached.busy) {
        // Map order is insertion order: move it to the young end.
        cache.delete(text);
        cache.set(text, cached);
        return cached;
      }
      const statement = new CachedStatement(sqlite.prepare(text));
      if (!cached) {
        cache.set(text, statement);
        if (cache.size > max) cache.delete(cache.keys().next().value!);
      }
      return statement;
    },
  };
};

/**
 * Whose turn it is to write to a SQLite file, within this process: each write of the connection
 * (an autocommit statement, a transaction from begin to its end) and each batch of the ingest
 * writer thread, which has a connection of its own. SQLite lets one connection write at a time; a
 * connection that finds the file locked waits in `busy_timeout`, which on the event loop's thread
 * would stop the whole server, and a transaction that read before another connection committed
 * cannot write at all (SQLITE_BUSY_SNAPSHOT). Taking turns here, writers wait as promises, in order.
 */
export class WriteGate {
  private tail: Promise<void> = Promise.resolve();

  /** Resolves with the function that ends the caller's turn, once it is the caller's turn. */
  acquire(): Promise<() => void> {
    let release!: () => void;
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    const turn = this.tail.then(() => release);
    this.tail = this.tail.then(() => done);
    return turn;
  }

  /** Runs `work` in a turn of its own. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  }
}

/** A statement that only reads: it needs no turn to write (WAL readers never wait). */
const readsOnly = (query: CompiledQuery): boolean =>
  SelectQueryNode.is(query.query) || (RawNode.is(query.query) && /^\s*(select|explain)\b/i.test(query.sql));

/** The driver's one connection, taking a turn of the gate for each write outside a transaction. */
class GatedConnection implements DatabaseConnection {
  /** Ends the open transaction's turn. */
  release: (() => void) | undefined;

  constructor(
    readonly inner: DatabaseConnection,
    private readonly gate: WriteGate,
  ) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.release || readsOnly(query)) return this.inner.executeQuery(query);
    return this.gate.run(() => this.inner.executeQuery(query));
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery(query, chunkSize);
  }
}

/** Kysely's SQLite driver with writes taking turns (`WriteGate`); `immediate` begins transactions so. */
class GatedDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly gate: WriteGate,
    private readonly begin: 'begin' | 'begin immediate',
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new GatedConnection(await this.inner.acquireConnection(), this.gate);
  }

  async beginTransaction(connection: GatedConnection, _settings: TransactionSettings): Promise<void> {
    const release = await this.gate.acquire();
    try {
      await connection.inner.executeQuery(CompiledQuery.raw(this.begin));
    } catch (error) {
      release();
      throw error;
    }
    connection.release = release;
  }

  async commitTransaction(connection: GatedConnection): Promise<void> {
    await this.inner.commitTransaction(connection.inner);
    this.endTurn(connection);
  }

  async rollbackTransaction(connection: GatedConnection): Promise<void> {
    try {
      await this.inner.rollbackTransaction(connection.inner);
    } finally {
      this.endTurn(connection);
    }
  }

  savepoint: Driver['savepoint'] = (connection, name, compile) =>
    this.inner.savepoint!((connection as GatedConnection).inner, name, compile);
  rollbackToSavepoint: Driver['rollbackToSavepoint'] = (connection, name, compile) =>
    this.inner.rollbackToSavepoint!((connection as GatedConnection).inner, name, compile);
  releaseSavepoint: Driver['releaseSavepoint'] = (connection, name, compile) =>
    this.inner.releaseSavepoint!((connection as GatedConnection).inner, name, compile);

  releaseConnection(connection: GatedConnection): Promise<void> {
    return this.inner.releaseConnection(connection.inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }

  private endTurn(connection: GatedConnection): void {
    connection.release?.();
    connection.release = undefined;
  }
}

class GatedSqliteDialect extends SqliteDialect {
  constructor(
    database: SqliteDatabase,
    private readonly gate: WriteGate,
    private readonly begin: 'begin' | 'begin immediate',
  ) {
    super({ database });
  }

  override createDriver(): Driver {
    return new GatedDriver(super.createDriver(), this.gate, this.begin);
  }
}

/**
 * Opens SQLite with the settings every connection needs (WAL for concurrent readers, FKs on).
 * `immediate` begins transactions by taking the write lock (a connection that only writes in
 * transactions, beside another connection of the process: the ingest writer thread's).
 */
export const openSqlite = (file: string, { immediate = false }: { immediate?: boolean } = {}): Database => {
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  const writeGate = new WriteGate();
  const dialect = new GatedSqliteDialect(
    cachingStatements(sqlite),
    writeGate,
    immediate ? 'begin immediate' : 'begin',
  );
  const db = new Kysely<DB>({ dialect });
  return {
    db,
    dialect: 'sqlite',
    close: () => db.destroy(),
    address: { dialect: 'sqlite', file },
    writeGate,
  };
};

/**
 * Timestamps are epoch ms in bigint columns; pg returns int8 as a string by default, which would
 * leak strings into every service. Counts are int8 too.
 */
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** SQL texts run as named prepared statements on PostgreSQL (see `preferPrepared`). */
const preparable = new Set<string>();

/**
 * Asks PostgreSQL connections to run this SQL text as a named prepared statement. Parsing and
 * planning the session lookup took 5× the time of running it, and half of a list page's; a
 * prepared statement is parsed once per connection, and after five runs PostgreSQL keeps one
 * generic plan when it costs no more than planning each run's values. For texts a process runs
 * over and over (QueryTemplates marks its own); the set is bounded.
 */
export const preferPrepared = (text: string): void => {
  if (preparable.size >= 5000) preparable.clear();
  preparable.add(text);
};

let statementSerial = 0;

/** The pg error of a prepared statement whose tables changed shape under it (DDL by a migration). */
const isStalePlan = (error: unknown): boolean =>
  error instanceof Error && /cached plan must not change result type/.test(error.message);

/**
 * A pool client that runs `preferPrepared` texts as named statements, the `max` most recently used
 * per connection; an older one is deallocated. Names are never reused, so pg's own record of
 * parsed names cannot point at a deallocated statement.
 */
class PreparingClient {
  /** Statement per SQL text, least recently used first: its name and (once seen) row builder. */
  private readonly statements = new Map<string, { name: string; build?: RowBuilder }>();

  constructor(
    readonly client: pg.PoolClient,
    private readonly max: number,
  ) {}

  query(textOrCursor: unknown, values?: ReadonlyArray<unknown>): unknown {
    if (typeof textOrCursor !== 'string' || !preparable.has(textOrCursor))
      return this.client.query(textOrCursor as string, values as unknown[]);
    return this.prepared(textOrCursor, values ?? []);
  }

  /**
   * Runs a statement by name. Rows come as arrays and become objects by the statement's
   * `rowBuilder`: pg builds each row object by spreading a template and setting fields by name,
   * a seventh of a 50-miner page's client time.
   */
  private async prepared(text: string, values: ReadonlyArray<unknown>) {
    let statement = this.statements.get(text);
    if (statement) this.statements.delete(text);
    else {
      statement = { name: `fbox_s${++statementSerial}` };
      if (this.statements.size >= this.max) await this.forget(this.statements.keys().next().value!);
    }
    this.statements.set(text, statement);
    let result: pg.QueryResult<unknown[]>;
    try {
      result = await this.client.query({
        name: statement.name,
        text,
        values: values as unknown[],
        rowMode: 'array',
      });
    } catch (error) {
      if (!isStalePlan(error)) throw error;
      // Run it unprepared this time (inside a transaction the error has aborted it, and stands);
      // the next run prepares it afresh.
      await this.forget(text);
      return this.client.query(text, values as unknown[]);
    }
    if (result.fields.length === 0) return result;
    statement.build ??= rowBuilder(result.fields.map((f) => f.name));
    return { command: result.command, rowCount: result.rowCount, rows: result.rows.map(statement.build) };
  }

  /** Deallocates the statement of `text` on this connection (failures only leave it allocated). */
  private async forget(text: string) {
    const name = this.statements.get(text)?.name;
    if (!name) return;
    this.statements.delete(text);
    await this.client.query(`deallocate ${name}`).catch(() => undefined);
    // pg remembers parsed names per connection; drop the record (the name is never used again).
    const parsed = (this.client as { connection?: { parsedStatements?: Record<string, string> } }).connection
      ?.parsedStatements;
    if (parsed) delete parsed[name];
  }

  release(destroy?: boolean): void {
    this.client.release(destroy);
  }
}

/** A pg pool for Kysely whose clients prepare statements (see PreparingClient). */
const preparingPool = (pool: pg.Pool, statementsPerConnection: number) => {
  const clients = new WeakMap<pg.PoolClient, PreparingClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let wrapped = clients.get(client);
      if (!wrapped) {
        wrapped = new PreparingClient(client, statementsPerConnection);
        clients.set(client, wrapped);
      }
      return wrapped as never;
    },
    end: () => pool.end(),
  };
};

export const openPostgres = (
  connectionString: string,
  options: pg.PoolConfig = {},
  statementsPerConnection = 100,
): Database => {
  // Ten connections for queries; listeners open their own (see listenOn).
  const pool = new pg.Pool({ connectionString, max: 10, types: pgTypes, ...options });
  // An idle connection lost (the server restarted, or its backend was terminated): the pool has
  // already dropped it and opens another for the next query. Unheard, the pool's 'error' event
  // would end the process.
  pool.on('error', () => undefined);
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({ pool: preparingPool(pool, statementsPerConnection) }),
  });
  const listeners = new Set<() => Promise<void>>();
  return {
    db,
    dialect: 'postgres',
    address: { dialect: 'postgres', url: connectionString, options: options.options },
    listen(channel, handlers) {
      listeners.add(listenOn(pool, channel, handlers));
    },
    notify: async (channel, payload) => {
      await sql`select pg_notify(${channel}, ${payload})`.execute(db);
    },
    close: async () => {
      await Promise.all([...listeners].map((stop) => stop()));
      await db.destroy();
    },
  };
};

/**
 * LISTEN on a connection of its own, opened with the pool's settings but outside it (a listener
 * holds its connection for good, and must not take one that queries need); after a loss, tries
 * again every second.
 */
const listenOn = (pool: pg.Pool, channel: string, handlers: ListenHandlers) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let connecting: Promise<void> = Promise.resolve();
  let stopped = false;
  const lost = () => {
    handlers.onListening(false);
    const broken = client;
    client = undefined;
    broken?.end().catch(() => undefined);
    if (!stopped)
      retry = setTimeout(() => {
        connecting = connect();
      }, 1000).unref();
  };
  const connect = async () => {
    const attempt = new pg.Client(pool.options);
    // Heard from the start and for good: an error of a connection no longer ours (stopped, or
    // replaced) is ignored, never an unhandled 'error' event that would end the process.
    attempt.on('error', () => {
      if (client === attempt) lost();
    });
    try {
      await attempt.connect();
      // Stopped while connecting: close it, or the process would wait for it.
      if (stopped) return void (await attempt.end());
      client = attempt;
      attempt.on('notification', (message) => {
        if (message.channel === channel) handlers.onNotify(message.payload ?? '');
      });
      await attempt.query(`listen ${channel}`);
      if (stopped) return;
      handlers.onListening(true);
    } catch {
      if (client !== attempt) await attempt.end().catch(() => undefined);
      if (!stopped) lost();
    }
  };
  connecting = connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    handlers.onListening(false);
    // A connection under way ends itself once it sees `stopped`: wait for it, so that after close
    // no connection to the database is left (a test then drops the database).
    await connecting;
    const held = client;
    client = undefined;
    if (held) {
      await held.query(`unlisten ${channel}`).catch(() => undefined);
      await held.end().catch(() => undefined);
    }
  };
};

/** The database the configuration asks for: PostgreSQL when DATABASE_URL is set, else a SQLite file. */
export const openDatabase = (config: { databaseUrl: string | undefined; dataDir: string }): Database => {
  if (config.databaseUrl) return openPostgres(config.databaseUrl);
  mkdirSync(config.dataDir, { recursive: true });
  return openSqlite(join(config.dataDir, 'fbox.db'));
};

/** Tables whose lists filter and sort in SQL: their index choice depends on the statistics. */
const analyzedTables = ['miner_info', 'miners', 'tank_state', 'tanks', 'fbox_state', 'fboxes'] as const;

/** What the planner statistics thread is started with: the SQLite file. */
export interface StatisticsThreadData {
  file: string;
}
export type StatisticsRequest = { type: 'analyze'; index: string } | { type: 'close' };
export type StatisticsReply = { type: 'analyzed' } | { type: 'failed'; message: string };

/** Where `updateStatistics` may analyze off the event loop: the file and this process's turn to write. */
export interface StatisticsThread {
  address: DatabaseAddress;
  writeGate: WriteGate | undefined;
}

/**
 * Refreshes the planner's statistics of the device tables. SQLite keeps none unless ANALYZE runs;
 * without them it may walk the wrong miner_info index (a list page filtered on status and model
 * took 350 ms instead of 2). The sampled ANALYZE (analysis_limit) misjudged the indexes, and
 * `PRAGMA optimize` would also scan the large history tables, so the tables' indexes are named.
 * PostgreSQL's autovacuum analyzes by itself.
 *
 * A full ANALYZE of a table is one statement: 1.7 s for miner_info at 1,000,000 miners, and each
 * index on its own still 80–240 ms. On the event loop's thread every request waits that long. With
 * `thread` (the hourly job, on a SQLite file), each index is analyzed on a thread of its own with a
 * connection of its own, in a turn of the process's `WriteGate` (ANALYZE writes `sqlite_stat1`);
 * requests that read never wait, and this connection then re-reads the statistics
 * (`analyze sqlite_schema`, which analyzes nothing). Without it (start-up, before the server
 * listens; an in-memory database), each index is analyzed on this connection with a turn of the
 * event loop in between.
 * With `onlyMissing` (start-up), only indexes without statistics are analyzed (a new database, an
 * index a migration added); the `db-statistics` job refreshes them all hourly.
 */
export const updateStatistics = async (
  db: Kysely<DB>,
  dialect: Dialect,
  { onlyMissing = false, thread }: { onlyMissing?: boolean; thread?: StatisticsThread } = {},
): Promise<void> => {
  if (dialect !== 'sqlite') return;
  const tables = sql.join([...analyzedTables]);
  const { rows: indexes } = await sql<{ name: string; tbl_name: string }>`
    select name, tbl_name from sqlite_master where type = 'index' and tbl_name in (${tables})
    order by tbl_name, name`.execute(db);
  const known = new Set<string>();
  if (onlyMissing && (await hasTable(db, 'sqlite_stat1'))) {
    const { rows } = await sql<{ idx: string | null }>`select idx from sqlite_stat1`.execute(db);
    for (const row of rows) if (row.idx) known.add(row.idx);
  }
  const names = indexes.map((index) => index.name).filter((name) => !known.has(name));
  if (names.length === 0) return dropSamples(db);
  const file = thread?.address.dialect === 'sqlite' ? thread.address.file : undefined;
  if (file && file !== ':memory:' && thread?.writeGate) {
    await analyzeOnThread(file, thread.writeGate, names);
    await sql`analyze sqlite_schema`.execute(db);
    return;
  }
  for (const name of names) {
    const [analyze, drop] = analyzeIndex(name);
    await db.transaction().execute(async (trx) => {
      await sql.raw(analyze).execute(trx);
      if (await hasTable(trx, 'sqlite_stat4')) await sql.raw(drop).execute(trx);
    });
    await yieldToLoop();
  }
  await dropSamples(db);
};

/**
 * Drops samples an earlier version's ANALYZE left (see `analyzeIndex`) and reloads this
 * connection's statistics without them: found only at a database's first start-up after that version.
 */
const dropSamples = async (db: Kysely<DB>): Promise<void> => {
  if (!(await hasTable(db, 'sqlite_stat4'))) return;
  const { rows } = await sql<{ n: number }>`select count(*) as n from sqlite_stat4`.execute(db);
  if (rows[0]!.n === 0) return;
  await sql`delete from sqlite_stat4`.execute(db);
  await sql`analyze sqlite_schema`.execute(db);
};

/** ANALYZE of each index on the statistics thread, one at a time, each in a turn to write. */
const analyzeOnThread = async (file: string, gate: WriteGate, names: string[]): Promise<void> => {
  const worker = startWorker(siblingModule(import.meta.url, 'statistics.worker'), {
    file,
  } satisfies StatisticsThreadData);
  let failure: Error | undefined;
  let answer: ((error?: Error) => void) | undefined;
  worker.on('message', (reply: StatisticsReply) =>
    answer?.(reply.type === 'failed' ? new Error(reply.message) : undefined),
  );
  worker.on('error', (error) => {
    failure = error;
  });
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', (code) => {
      answer?.(failure ?? new Error(`statistics thread exited (${code})`));
      resolve();
    }),
  );
  const analyze = (index: string) =>
    new Promise<void>((resolve, reject) => {
      answer = (error) => {
        answer = undefined;
        if (error) reject(new Error(`ANALYZE ${index}: ${error.message}`));
        else resolve();
      };
      worker.postMessage({ type: 'analyze', index } satisfies StatisticsRequest);
    });
  try {
    for (const index of names) await gate.run(() => analyze(index));
  } finally {
    worker.postMessage({ type: 'close' } satisfies StatisticsRequest);
    await exited;
  }
};

const hasTable = async (db: Kysely<DB>, name: string): Promise<boolean> => {
  const { rows } = await sql`select 1 from sqlite_master where type = 'table' and name = ${name}`.execute(db);
  return rows.length > 0;
};
