import { type Kysely, sql, type Transaction } from 'kysely';
import { yieldToLoop } from '../lib/event-loop.js';
import type { DB } from './schema.js';

/**
 * The lowest and highest `table.column`, each in a query of its own: SQLite reads a lone min() or
 * max() off the index, but both in one select scan the whole table (100,000 miners: 5.9 ms against
 * 5 µs, on the event loop, for every rollup job's run).
 */
export const idBounds = (table: string, column: string) => {
  const ref = sql.ref(column);
  const from = sql.table(table);
  return sql<{
    lo: number | string | null;
    hi: number | string | null;
  }>`select (select min(${ref}) from ${from}) as lo, (select max(${ref}) from ${from}) as hi`;
};

/**
 * Calls `run(lo, hi)` for consecutive ranges `[lo, hi)` of `size` ids covering `table.column`, with a
 * turn of the event loop after each: how a job goes through a large mine without holding requests
 * and ingest for the whole of it.
 */
export const inIdRanges = async (
  db: Kysely<DB> | Transaction<DB>,
  table: string,
  column: string,
  size: number,
  run: (lo: number, hi: number) => Promise<unknown>,
): Promise<void> => {
  const { rows } = await idBounds(table, column).execute(db);
  if (rows[0]?.lo == null || rows[0].hi == null) return;
  for (let lo = Number(rows[0].lo); lo <= Number(rows[0].hi); lo += size) {
    await run(lo, lo + size);
    await yieldToLoop();
  }
};
