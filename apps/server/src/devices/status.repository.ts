import type { ExpressionBuilder, Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** Online/offline flags of FBOXes and of what hangs on them (`fbox_state`, `tank_state`, `miner_state`). */
export class StatusRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Sets a box online unless it already is; returns whether it changed. */
  async setOnline(fboxId: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('fbox_state')
      .set({ online: 1, last_seen_at: now, updated_at: now })
      .where('fbox_id', '=', fboxId)
      .where('online', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Sets a box offline with its tanks and miners, in one transaction; false when it already was. */
  setOffline(fboxId: number, now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('fbox_state')
        .set({ online: 0, updated_at: now })
        .where('fbox_id', '=', fboxId)
        .where('online', '=', 1)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      const going = (eb: ExpressionBuilder<DB, 'miner_readings'>) =>
        eb(
          'miner_id',
          'in',
          eb
            .selectFrom('miner_info')
            .select('miner_id')
            .where('fbox_id', '=', fboxId)
            .where('online', '=', 1),
        );
      await trx.updateTable('miner_readings').set({ updated_at: now }).where(going).execute();
      await trx
        .updateTable('miner_info')
        .set({ online: 0 })
        .where('fbox_id', '=', fboxId)
        .where('online', '=', 1)
        .execute();
      await trx
        .updateTable('tank_state')
        .set({ online: 0, updated_at: now })
        .where('fbox_id', '=', fboxId)
        .execute();
      return true;
    });
  }

  /** Boxes marked online, with when they were last heard and how often they report. */
  onlineBoxes() {
    return this.db
      .selectFrom('fbox_state')
      .innerJoin('fboxes', 'fboxes.id', 'fbox_state.fbox_id')
      .select(['fboxes.id', 'fboxes.area_id', 'fboxes.reporting_interval_s', 'fbox_state.last_seen_at'])
      .where('fbox_state.online', '=', 1)
      .execute();
  }
}
