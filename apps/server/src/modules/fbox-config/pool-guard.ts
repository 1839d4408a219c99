import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { DB } from '../../db/schema.js';

/**
 * Pool-hijack guard (Lock Pool): a miner of the mine `areaId` is hijacked while its master's Lock
 * Pool is on and it reports a pool address or worker other than the configured one. Miners without
 * a configured pool (none set by the cloud, none snapshotted) and miners that report no pool are
 * never flagged. For rows of `miner_state` of that mine only. The switch does not depend on the
 * row, so PostgreSQL reads it once per query rather than once per miner.
 */
export const poolHijacked = (areaId: number): Expression<SqlBool> => sql<SqlBool>`(
  miner_state.pool_address <> ''
  and exists (
    select 1 from areas a, users u where a.id = ${areaId} and u.id = a.owner_id and u.pool_locked = 1
  )
  and exists (
    select 1 from miner_pool_configs pc
    where pc.miner_id = miner_state.miner_id
      and (pc.pool_address <> miner_state.pool_address or pc.worker <> miner_state.worker)
  )
)`;

/** Which of `minerIds` (miners of `areaId`) are hijacked now. */
export const hijackedAmong = async (
  db: Kysely<DB>,
  areaId: number,
  minerIds: number[],
): Promise<Set<number>> => {
  if (minerIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('miner_state')
    .select('miner_state.miner_id')
    .where('miner_state.area_id', '=', areaId)
    .where('miner_state.miner_id', 'in', minerIds)
    .where(poolHijacked(areaId))
    .execute();
  return new Set(rows.map((r) => r.miner_id));
};

/** A pool address as miners report it: `host:port` gets the `stratum+tcp://` scheme. */
export const normalizePool = (address: string): string => {
  const trimmed = address.trim();
  return /^stratum[0-9]?\+/i.test(trimmed) ? trimmed : `stratum+tcp://${trimmed}`;
};
