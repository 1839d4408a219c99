import type { Kysely } from 'kysely';
import type { DB } from './schema.js';

/** The `jobs` table: one row per periodic job, claimed with a lease by the process that runs it. */
export class JobRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Adds a row for each job not known yet, due at once. */
  async register(names: string[]): Promise<void> {
    await this.db
      .insertInto('jobs')
      .values(
        names.map((name) => ({ name, claimed_by: null, lease_until: 0, last_run_at: null, next_run_at: 0 })),
      )
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  }

  /** Claims a due, unleased job with one conditional update; false when another process holds it. */
  async claim(name: string, owner: string, now: number, leaseUntil: number): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({ claimed_by: owner, lease_until: leaseUntil })
      .where('name', '=', name)
      .where('next_run_at', '<=', now)
      .where('lease_until', '<=', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Releases a job this owner still holds and sets when it is due next. */
  async release(name: string, owner: string, ranAt: number, nextRunAt: number): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ claimed_by: null, lease_until: 0, last_run_at: ranAt, next_run_at: nextRunAt })
      .where('name', '=', name)
      .where('claimed_by', '=', owner)
      .execute();
  }
}
