import { sql } from 'kysely';

/**
 * Where a miner on no PDU outlet sorts by outlet: after every outlet, as a value, so an index on
 * the same expression serves the order (migration 0035 creates it on SQLite).
 */
export const noOutlet = 2147483647;

/** The outlet as the list sorts it. */
export const outletOrder = sql`coalesce(${sql.ref('miner_state.outlet')}, ${sql.lit(noOutlet)})`;
