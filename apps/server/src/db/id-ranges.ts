import { type Kysely, sql, type Transaction } from 'kysely';
import { yieldToLoop } from '../lib/event-loop.js';
import type { DB } from './schema.js';

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
  const { rows } = await sql<{
    lo: number | string | null;
    hi: number | string | null;
  }>`select min(${sql.ref(column)}) as lo, max(${sql.ref(column)}) as hi from ${sql.table(table)}`.execute(
    db,
  );
  if (rows[0]?.lo == null || rows[0].hi == null) return;
  for (let lo = Number(rows[0].lo); lo <= Number(rows[0].hi); lo += size) {
    await run(lo, lo + size);
    await yieldToLoop();
  }
};
