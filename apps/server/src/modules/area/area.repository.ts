import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

const columns = ['areas.id', 'areas.area_name', 'areas.electricity_hz'] as const;

/** What the Manage Mines screen shows to masters and administrators (with the Agent Key). */
export const mineColumns = [
  ...columns,
  'areas.electricity_price',
  'areas.comment',
  'areas.contact',
  'areas.agent_key',
  'areas.created_at',
] as const;

/** Mine fields an edit may change. */
export interface AreaChanges {
  area_name?: string;
  electricity_hz?: number;
  electricity_price?: number;
  comment?: string;
  contact?: string;
}

/** Kysely queries for areas (mines). Every lookup is scoped by owner so foreign ids are invisible. */
export class AreaRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** The master account that owns an area. */
  async ownerOf(areaId: number): Promise<number | undefined> {
    const area = await this.db
      .selectFrom('areas')
      .select('owner_id')
      .where('id', '=', areaId)
      .executeTakeFirst();
    return area?.owner_id;
  }

  listOwned(ownerId: number) {
    return this.db
      .selectFrom('areas')
      .select(columns)
      .where('owner_id', '=', ownerId)
      .orderBy('id')
      .execute();
  }

  /** Areas a sub-account manages. */
  listAssigned(userId: number) {
    return this.db
      .selectFrom('areas')
      .innerJoin('user_areas', 'user_areas.area_id', 'areas.id')
      .select(columns)
      .where('user_areas.user_id', '=', userId)
      .orderBy('areas.id')
      .execute();
  }

  /** The area if the user may see it: a master owns it, a sub-account manages it for its master. */
  findAccessible(user: { id: number; isMaster: boolean; parentId: number | null }, id: number) {
    let query = this.db
      .selectFrom('areas')
      .select([...columns, 'areas.owner_id'])
      .where('areas.id', '=', id);
    query = user.isMaster
      ? query.where('areas.owner_id', '=', user.id)
      : query
          .innerJoin('user_areas', 'user_areas.area_id', 'areas.id')
          .where('user_areas.user_id', '=', user.id)
          .where('areas.owner_id', '=', user.parentId ?? -1);
    return query.executeTakeFirst();
  }

  findOwned(ownerId: number, id: number) {
    return this.db
      .selectFrom('areas')
      .select(columns)
      .where('owner_id', '=', ownerId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async nameTaken(ownerId: number, name: string, exceptId?: number): Promise<boolean> {
    let query = this.db
      .selectFrom('areas')
      .select('id')
      .where('owner_id', '=', ownerId)
      .where('area_name', '=', name);
    if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  insert(
    ownerId: number,
    mine: Required<Pick<AreaChanges, 'area_name' | 'electricity_hz' | 'electricity_price'>> & AreaChanges,
    agentKey: string,
    now: number,
  ) {
    return this.db
      .insertInto('areas')
      .values({
        owner_id: ownerId,
        area_name: mine.area_name,
        electricity_hz: mine.electricity_hz,
        electricity_price: mine.electricity_price,
        comment: mine.comment ?? '',
        contact: mine.contact ?? '',
        agent_key: agentKey,
        created_at: now,
        updated_at: now,
      })
      .returning(['id', 'area_name', 'electricity_hz'])
      .executeTakeFirstOrThrow();
  }

  async update(id: number, values: AreaChanges & { agent_key?: string }, now: number): Promise<void> {
    await this.db
      .updateTable('areas')
      .set({ ...values, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  async delete(ownerId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('areas')
      .where('owner_id', '=', ownerId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }
}
