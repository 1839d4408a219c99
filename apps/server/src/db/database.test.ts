import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbAvailable, testDbKind } from '../test/build-test-app.js';
import {
  cachingStatements,
  type Database,
  openPostgres,
  openSqlite,
  preferPrepared,
  updateStatistics,
} from './database.js';
import type { DB } from './schema.js';

describe('SQLite statement cache', () => {
  it('reuses a statement by SQL text, prepares anew while one iterates, and evicts the oldest', () => {
    const sqlite = new SQLite(':memory:');
    const db = cachingStatements(sqlite, 2);
    const a = db.prepare('select 1 as n');
    expect(db.prepare('select 1 as n')).toBe(a);
    expect(a.all([])).toEqual([{ n: 1 }]);

    // A statement still iterating (a stream) is busy: the caller gets a fresh one.
    const iterating = db.prepare('select 2 as n');
    const rows = iterating.iterate([]);
    rows.next();
    const other = db.prepare('select 2 as n');
    expect(other).not.toBe(iterating);
    expect(other.all([])).toEqual([{ n: 2 }]);
    rows.return?.();
    expect(db.prepare('select 2 as n')).toBe(iterating);

    // Capacity 2: 'select 1' was used before 'select 2', so a third text evicts it.
    db.prepare('select 3 as n');
    expect(db.prepare('select 1 as n')).not.toBe(a);
    db.close();
  });
});

describe('SQLite write turns', () => {
  it('lets another connection write in its turn: this one reads meanwhile, and its writes wait as promises', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fbox-gate-'));
    const file = join(dir, 'gate.db');
    const main = openSqlite(file);
    // The ingest writer thread's connection, here on the same thread.
    const writer = openSqlite(file, { immediate: true });
    try {
      await sql`create table t (id integer primary key, v integer not null)`.execute(main.db);
      await sql`insert into t values (1, 0)`.execute(main.db);
      const value = async () =>
        (await sql<{ v: number }>`select v from t where id = 1`.execute(main.db)).rows[0]!.v;

      // The writer's turn: its transaction holds SQLite's write lock until `finish`.
      const release = await main.writeGate!.acquire();
      let finish!: () => void;
      const open = new Promise<void>((resolve) => {
        finish = resolve;
      });
      const written = writer.db.transaction().execute(async (trx) => {
        await sql`update t set v = v + 1`.execute(trx);
        await open;
      });
      // A transaction that reads, then writes, and a write of its own: both wait for their turn.
      const settled: string[] = [];
      const transaction = main.db
        .transaction()
        .execute(async (trx) => {
          const { v } = (await sql<{ v: number }>`select v from t where id = 1`.execute(trx)).rows[0]!;
          await sql`update t set v = ${v + 10} where id = 1`.execute(trx);
        })
        .then(() => settled.push('transaction'));
      const insert = sql`insert into t values (2, 0)`.execute(main.db).then(() => settled.push('insert'));
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(settled).toEqual([]);

      finish();
      await written;
      release();
      await Promise.all([transaction, insert]);
      // The transaction read after the writer's commit, so nothing it read was stale.
      expect(settled).toEqual(['transaction', 'insert']);
      expect(await value()).toBe(11);
    } finally {
      await writer.close();
      await main.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Rows of STAT4's samples (the table exists once ANALYZE ran, better-sqlite3 being built with STAT4). */
const samples = async (db: Kysely<DB>): Promise<number> =>
  (await sql<{ n: number }>`select count(*) as n from sqlite_stat4`.execute(db)).rows[0]!.n;

describe('SQLite planner statistics', () => {
  it('analyzes each index of the device tables with a turn of the event loop between, and at start-up only those without statistics', async () => {
    const { db, close } = openSqlite(':memory:');
    await sql`create table miners (id integer primary key, area_id integer, sn text)`.execute(db);
    await sql`create index miners_area_sn on miners (area_id, sn)`.execute(db);
    await sql`create index miners_sn on miners (sn)`.execute(db);
    await sql`create table fboxes (id integer primary key, device_id text unique)`.execute(db);
    await sql`create table other (id integer primary key, name text)`.execute(db);
    await sql`create index other_name on other (name)`.execute(db);
    for (let i = 0; i < 20; i++) {
      await sql`insert into miners (area_id, sn) values (${i % 2}, ${`S${i}`})`.execute(db);
      await sql`insert into fboxes (device_id) values (${`D${i}`})`.execute(db);
      await sql`insert into other (name) values (${`N${i}`})`.execute(db);
    }
    const stats = async () =>
      Object.fromEntries(
        (await sql<{ idx: string; stat: string }>`select idx, stat from sqlite_stat1`.execute(db)).rows.map(
          (r) => [r.idx, r.stat],
        ),
      );

    // Loop turns while it runs: a request waits for one index at most, not for all of them.
    let turns = 0;
    let done = false;
    const turn = () => {
      turns++;
      if (!done) setImmediate(turn);
    };
    setImmediate(turn);
    await updateStatistics(db, 'sqlite');
    done = true;
    const all = await stats();
    expect(Object.keys(all).sort()).toEqual(['miners_area_sn', 'miners_sn', 'sqlite_autoindex_fboxes_1']);
    expect(all.miners_area_sn).toBe('20 10 1');
    expect(turns).toBeGreaterThanOrEqual(2);

    // Start-up: an index without statistics is analyzed; the others keep theirs.
    await sql`update sqlite_stat1 set stat = '7 7' where idx = 'miners_sn'`.execute(db);
    await sql`delete from sqlite_stat1 where idx = 'miners_area_sn'`.execute(db);
    await updateStatistics(db, 'sqlite', { onlyMissing: true });
    expect(await stats()).toMatchObject({ miners_sn: '7 7', miners_area_sn: '20 10 1' });

    // The hourly refresh analyzes every index again.
    await updateStatistics(db, 'sqlite');
    expect((await stats()).miners_sn).toBe('20 1');
    // Without the samples of STAT4, whose plans make SQLite prepare a statement again on every bind.
    expect(await samples(db)).toBe(0);

    // Samples an earlier version's plain ANALYZE kept are dropped at start-up.
    await sql`analyze miners_sn`.execute(db);
    expect(await samples(db)).toBeGreaterThan(0);
    await updateStatistics(db, 'sqlite', { onlyMissing: true });
    expect(await samples(db)).toBe(0);
    expect((await stats()).miners_sn).toBe('20 1');
    await close();
  });

  it('refreshes them on a thread of its own while the process writes, and this connection plans with them at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fbox-stats-'));
    const database = openSqlite(join(dir, 'fbox.db'));
    const { db, writeGate, address } = database;
    try {
      await sql`create table miners (id integer primary key, area_id integer, sn text)`.execute(db);
      await sql`create index miners_area on miners (area_id)`.execute(db);
      await sql`create index miners_sn on miners (sn)`.execute(db);
      await sql`insert into miners (area_id, sn)
        with recursive n(v) as (select 1 union all select v + 1 from n where v < 200)
        select v % 2, 'S' || v from n`.execute(db);
      const plan = async () =>
        (
          await sql<{
            detail: string;
          }>`explain query plan select id from miners where area_id = 1 and sn = 'S7'`.execute(db)
        ).rows
          .map((r) => r.detail)
          .join('; ');
      // Without statistics the planner takes the index of the area (two values) for both equalities.
      expect(await plan()).toContain('miners_area');

      // The process's writes go on meanwhile, taking turns with the thread's (none fails busy).
      const refresh = updateStatistics(db, 'sqlite', { thread: { address, writeGate } });
      for (let i = 0; i < 20; i++)
        await sql`insert into miners (area_id, sn) values (0, ${`late${i}`})`.execute(db);
      await refresh;

      const { rows: stat } = await sql<{
        idx: string;
        stat: string;
      }>`select idx, stat from sqlite_stat1 order by idx`.execute(db);
      expect(stat).toEqual([
        { idx: 'miners_area', stat: expect.stringMatching(/^2\d\d 1\d\d$/) },
        { idx: 'miners_sn', stat: expect.stringMatching(/^2\d\d 1$/) },
      ]);
      // Read again at once by this connection: the unique-ish SN index now wins.
      expect(await plan()).toContain('miners_sn');
      expect(await samples(db)).toBe(0);
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const pgUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

(testDbKind === 'postgres' && dbAvailable ? describe : describe.skip)(
  'PostgreSQL prepared statements',
  () => {
    let database: Database | undefined;
    const schema = `t_${randomBytes(6).toString('hex')}`;

    beforeAll(async () => {
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      await admin.end();
      // One connection keeping at most two statements.
      database = openPostgres(pgUrl, { options: `-c search_path=${schema}`, max: 1 }, 2);
      await sql`create table t (id integer primary key, name text not null)`.execute(database.db);
      await sql`insert into t values (1, 'a'), (2, 'b'), (3, 'c')`.execute(database.db);
    });

    afterAll(async () => {
      await database?.close();
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    });

    const run = async (text: string, parameters: unknown[]) =>
      (await database!.db.executeQuery(CompiledQuery.raw(text, parameters))).rows;
    const prepared = async () =>
      (
        await sql<{
          statement: string;
        }>`select statement from pg_prepared_statements order by statement`.execute(database!.db)
      ).rows.map((r) => r.statement);

    it('runs preferred texts as named statements, keeping the most recently used per connection', async () => {
      const texts = [1, 2, 3].map((n) => `select name, ${n} as n from t where id = $1`);
      for (const text of texts) preferPrepared(text);
      expect(await run(texts[0]!, [1])).toEqual([{ name: 'a', n: 1 }]);
      expect(await run(texts[1]!, [2])).toEqual([{ name: 'b', n: 2 }]);
      expect(await prepared()).toEqual([texts[0], texts[1]]);
      // A third text deallocates the least recently used one; it prepares again when it comes back.
      expect(await run(texts[2]!, [3])).toEqual([{ name: 'c', n: 3 }]);
      expect(await prepared()).toEqual([texts[1], texts[2]]);
      expect(await run(texts[0]!, [2])).toEqual([{ name: 'b', n: 1 }]);
      expect(await prepared()).toEqual([texts[0], texts[2]]);
      // Other texts run unnamed.
      expect(await run('select count(*)::int as total from t', [])).toEqual([{ total: 3 }]);
      expect(await prepared()).toHaveLength(2);
    });

    it('answers again after an idle connection was terminated', async () => {
      const pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database!.db)).rows[0]!
        .pid;
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query('select pg_terminate_backend($1)', [pid]);
      await admin.end();
      // The pool hears the loss on its idle connection (which would end the process unheard) ...
      await new Promise((resolve) => setTimeout(resolve, 100));
      // ... and the next query runs on a new one.
      const again = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database!.db))
        .rows[0]!.pid;
      expect(again).not.toBe(pid);
    });

    it('runs a statement again after its table changed shape', async () => {
      const text = 'select * from t where id = $1';
      preferPrepared(text);
      expect(await run(text, [1])).toEqual([{ id: 1, name: 'a' }]);
      await sql`alter table t add column note text not null default 'x'`.execute(database!.db);
      expect(await run(text, [1])).toEqual([{ id: 1, name: 'a', note: 'x' }]);
      expect(await run(text, [2])).toEqual([{ id: 2, name: 'b', note: 'x' }]);
    });
  },
);
