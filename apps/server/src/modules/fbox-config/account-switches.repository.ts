import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { DB } from '../../db/schema.js';

/** The overclock policy last sent to a master's miners. */
export interface PolicyRow {
  status: number;
  min: number;
  max: number;
  batch_id: string;
  miners: number;
  sent_at: number;
}

/** Kysely queries behind the account switches (Auto Overclock, Lock Pool) of a master account. */
export class AccountSwitchRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** The next miners of every mine of the master after `afterId`, by id. */
  minersOfMaster(masterId: number, afterId: number, limit: number) {
    return this.db
      .selectFrom('miners')
      .innerJoin('areas', 'areas.id', 'miners.area_id')
      .leftJoin('miner_info as miner_state', 'miner_state.miner_id', 'miners.id')
      .select([
        'miners.id',
        'miners.area_id',
        'miners.fbox_id',
        'miners.tank_id',
        'miners.sn',
        'miner_state.outlet',
      ])
      .where('areas.owner_id', '=', masterId)
      .where('miners.id', '>', afterId)
      .orderBy('miners.id')
      .limit(limit)
      .execute();
  }

  async savePolicy(masterId: number, row: PolicyRow) {
    await this.db
      .insertInto('overclock_policies')
      .values({ master_id: masterId, ...row })
      .onConflict((oc) => oc.column('master_id').doUpdateSet(row))
      .execute();
  }

  policy(masterId: number) {
    return this.db
      .selectFrom('overclock_policies')
      .selectAll()
      .where('master_id', '=', masterId)
      .executeTakeFirst();
  }

  /** The master's Auto Overclock settings. */
  overclockSettings(masterId: number) {
    return this.db
      .selectFrom('users')
      .select(['auto_frequency', 'auto_frequency_min', 'auto_frequency_max'])
      .where('id', '=', masterId)
      .executeTakeFirst();
  }

  /** A batch's commands counted by status. */
  batchCounts(batchId: string) {
    return this.db
      .selectFrom('commands')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('batch_id', '=', batchId)
      .groupBy('status')
      .execute();
  }

  /** Whether the master owning the area has Lock Pool on. */
  async poolLocked(areaId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('areas')
      .innerJoin('users', 'users.id', 'areas.owner_id')
      .select('users.pool_locked')
      .where('areas.id', '=', areaId)
      .executeTakeFirst();
    return row?.pool_locked === 1;
  }

  /** Sets the configured pool and worker of these miners. */
  async setConfiguredPool(
    minerIds: number[],
    row: { pool_address: string; worker: string; updated_at: number },
  ) {
    for (let i = 0; i < minerIds.length; i += 500) {
      await this.db
        .insertInto('miner_pool_configs')
        .values(minerIds.slice(i, i + 500).map((miner_id) => ({ miner_id, ...row })))
        .onConflict((oc) => oc.column('miner_id').doUpdateSet(row))
        .execute();
    }
  }

  /** Every miner of the master's mines: its reported pool and worker become its configured ones. */
  async snapshotPools(masterId: number, now: number) {
    await this.db
      .insertInto('miner_pool_configs')
      .columns(['miner_id', 'pool_address', 'worker', 'updated_at'])
      .expression((eb) =>
        eb
          .selectFrom('miner_state')
          .innerJoin('areas', 'areas.id', 'miner_state.area_id')
          .select([
            'miner_state.miner_id',
            'miner_state.pool_address',
            'miner_state.worker',
            sql<number>`cast(${now} as bigint)`.as('updated_at'),
          ])
          .where('areas.owner_id', '=', masterId)
          .where('miner_state.pool_address', '<>', ''),
      )
      .onConflict((oc) =>
        oc.column('miner_id').doUpdateSet((eb) => ({
          pool_address: eb.ref('excluded.pool_address'),
          worker: eb.ref('excluded.worker'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
}
