import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { Clock } from '../lib/clock.js';
import type { LiveEvents } from '../realtime/live-events.js';

/**
 * Online/offline of FBOX gateways: from the retained status topic and last will, and from silence
 * (no telemetry for 3 reporting intervals). When a box goes offline nothing is known about its
 * tanks and miners any more, so they are marked offline with it.
 */
export class StatusService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    private readonly live: LiveEvents,
  ) {}

  /** Marks a box online (status topic); returns whether it changed. */
  async markOnline(fbox: { id: number; area_id: number }): Promise<boolean> {
    const now = this.clock();
    const result = await this.db
      .updateTable('fbox_state')
      .set({ online: 1, last_seen_at: now, updated_at: now })
      .where('fbox_id', '=', fbox.id)
      .where('online', '=', 0)
      .executeTakeFirst();
    const changed = Number(result.numUpdatedRows) > 0;
    if (changed) this.live.publish({ type: 'status', areaId: fbox.area_id, fboxId: fbox.id, online: true });
    return changed;
  }

  /** Marks a box and its tanks and miners offline; returns whether the box changed. */
  async markOffline(fbox: { id: number; area_id: number }): Promise<boolean> {
    const now = this.clock();
    const changed = await this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('fbox_state')
        .set({ online: 0, updated_at: now })
        .where('fbox_id', '=', fbox.id)
        .where('online', '=', 1)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await trx
        .updateTable('miner_state')
        .set({ online: 0, updated_at: now })
        .where('fbox_id', '=', fbox.id)
        .where('online', '=', 1)
        .execute();
      await trx
        .updateTable('tank_state')
        .set({ online: 0, updated_at: now })
        .where('fbox_id', '=', fbox.id)
        .execute();
      return true;
    });
    if (changed) this.live.publish({ type: 'status', areaId: fbox.area_id, fboxId: fbox.id, online: false });
    return changed;
  }

  /**
   * The offline detector: boxes marked online whose last telemetry (or status) is older than three
   * of their reporting intervals. Returns how many went offline.
   */
  async detectSilence(): Promise<number> {
    const now = this.clock();
    const rows = await this.db
      .selectFrom('fbox_state')
      .innerJoin('fboxes', 'fboxes.id', 'fbox_state.fbox_id')
      .select(['fboxes.id', 'fboxes.area_id', 'fboxes.reporting_interval_s', 'fbox_state.last_seen_at'])
      .where('fbox_state.online', '=', 1)
      .execute();
    let count = 0;
    for (const row of rows) {
      const silentSince = row.last_seen_at ?? 0;
      if (now - silentSince >= 3 * row.reporting_interval_s * 1000 && (await this.markOffline(row))) count++;
    }
    return count;
  }
}
