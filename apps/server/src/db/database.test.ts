import { randomBytes } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { CompiledQuery, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbAvailable, testDbKind } from '../test/build-test-app.js';
import { cachingStatements, type Database, openPostgres, preferPrepared } from './database.js';

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
