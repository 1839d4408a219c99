import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openSqlite } from './database.js';
import { idBounds, inIdRanges } from './id-ranges.js';

describe('id ranges', () => {
  it('cover the ids in ranges of the given size, and none of an empty table', async () => {
    const { db, close } = openSqlite(':memory:');
    try {
      await sql`create table things (id integer primary key)`.execute(db);
      const ranges: [number, number][] = [];
      await inIdRanges(db, 'things', 'id', 10, async (lo, hi) => ranges.push([lo, hi]));
      expect(ranges).toEqual([]);
      await sql`insert into things (id) values (3), (4), (17), (25)`.execute(db);
      await inIdRanges(db, 'things', 'id', 10, async (lo, hi) => ranges.push([lo, hi]));
      expect(ranges).toEqual([
        [3, 13],
        [13, 23],
        [23, 33],
      ]);
    } finally {
      await close();
    }
  });

  it('find the bounds from the index, not by reading the table', async () => {
    const { db, close } = openSqlite(':memory:');
    try {
      await sql`create table things (id integer primary key)`.execute(db);
      const { rows } = await sql<{ detail: string }>`explain query plan ${idBounds('things', 'id')}`.execute(
        db,
      );
      const plan = rows.map((r) => r.detail);
      expect(plan.filter((step) => step.startsWith('SEARCH things'))).toHaveLength(2);
      expect(plan.some((step) => step.startsWith('SCAN things'))).toBe(false);
    } finally {
      await close();
    }
  });
});
