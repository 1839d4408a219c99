import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** Kysely queries for the user's notifications. */
export class MessageRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Unread rows of a user; with an area, that area's rows plus the area-less ones. */
  async countUnread(userId: number, areaId?: number): Promise<number> {
    let query = this.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('read_at', 'is', null);
    if (areaId !== undefined) {
      query = query.where((eb) => eb.or([eb('area_id', '=', areaId), eb('area_id', 'is', null)]));
    }
    const row = await query.executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
