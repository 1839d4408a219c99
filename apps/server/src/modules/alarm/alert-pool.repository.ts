import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { ConfiguredPool } from './alarm-conditions.js';

/** `<fboxId>:<sn>`: how a telemetry message names a miner of its box. */
export const minerKey = (fboxId: number, sn: string): string => `${fboxId}:${sn}`;

/**
 * The configured pool of each miner of these boxes that has one (`miner_pool_configs`: set by the
 * cloud's pool changes and Lock Pool), by `minerKey`. Read only when a mine has a pool rule on; a
 * mine whose pools the cloud never set answers with no rows.
 */
export const configuredPoolsOf = async (
  db: Kysely<DB>,
  fboxIds: readonly number[],
): Promise<Map<string, ConfiguredPool>> => {
  if (fboxIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('miner_pool_configs')
    .innerJoin('miners', 'miners.id', 'miner_pool_configs.miner_id')
    .select(['miners.fbox_id', 'miners.sn', 'miner_pool_configs.pool_address', 'miner_pool_configs.worker'])
    .where('miners.fbox_id', 'in', fboxIds)
    .execute();
  return new Map(rows.map((r) => [minerKey(r.fbox_id, r.sn), r]));
};
