import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bulkInsert } from './bulk.js';
import { cachingStatements } from './database.js';
import type { DB } from './schema.js';

/** SQLite behind Kysely as `openSqlite` sets it up, noting every SQL text it prepares. */
const recordingSqlite = () => {
  const statements = cachingStatements(new SQLite(':memory:'));
  const prepared: string[] = [];
  const db = new Kysely<DB>({
    dialect: new SqliteDialect({
      database: {
        close: statements.close,
        prepare: (text) => {
          prepared.push(text);
          return statements.prepare(text);
        },
      },
    }),
  });
  return { db, prepared };
};

/** The row count of a multi-row insert's text. */
const rowsOf = (text: string) => text.split('),(').length;

describe('bulk insert on SQLite', () => {
  it('writes every row in statements of power-of-two sizes, so any mix of counts prepares a dozen texts', async () => {
    const { db, prepared } = recordingSqlite();
    await sql`create table t (a integer primary key, b text)`.execute(db);
    let next = 0;
    let expected = 0;
    for (let n = 1; n <= 300; n++) {
      const rows = Array.from({ length: n }, () => [next++, `row ${next}`]);
      await bulkInsert(db, 'sqlite', 't', ['a', 'b'], rows);
      expected += n;
    }
    const stored = await sql<{ n: number }>`select count(*) as n, sum(a) as s from t`.execute(db);
    expect(stored.rows[0]!.n).toBe(expected);
    const texts = new Set(prepared.filter((text) => text.startsWith('insert')));
    expect([...texts].map(rowsOf).sort((x, y) => x - y)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256]);
    await db.destroy();
  });

  it('keeps each statement under the parameter limit with wide rows', async () => {
    const { db, prepared } = recordingSqlite();
    const columns = Array.from({ length: 40 }, (_, i) => `c${i}`);
    await sql.raw(`create table w (${columns.map((c) => `${c} integer`).join(', ')})`).execute(db);
    const rows = Array.from({ length: 2_000 }, (_, r) => columns.map((_, c) => r * 100 + c));
    await bulkInsert(db, 'sqlite', 'w', columns, rows);
    const stored = await sql<{ n: number }>`select count(*) as n from w`.execute(db);
    expect(stored.rows[0]!.n).toBe(2_000);
    // 30,000 parameters / 40 columns = 750 rows at most: 512 + 512 + 512 + 256 + 128 + 64 + 16.
    const sizes = prepared.filter((text) => text.startsWith('insert')).map(rowsOf);
    expect(Math.max(...sizes)).toBe(512);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(2_000);
    await db.destroy();
  });
});
