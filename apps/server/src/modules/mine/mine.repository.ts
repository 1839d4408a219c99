import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { mineColumns } from '../area/area.repository.js';

const count = (
  db: Kysely<DB>,
  table: 'fboxes' | 'tanks' | 'miners' | 'user_areas' | 'mqtt_clients',
  areaId: number,
) =>
  db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('area_id', '=', areaId)
    .executeTakeFirstOrThrow()
    .then((row) => Number(row.n));

/** Kysely queries of the Manage Mines screen (mines with their management fields). */
export class MineRepository {
  constructor(private readonly db: Kysely<DB>) {}

  listOwned(ownerId: number) {
    return this.db
      .selectFrom('areas')
      .select(mineColumns)
      .where('areas.owner_id', '=', ownerId)
      .orderBy('areas.id')
      .execute();
  }

  /** Mines a sub-account manages (its master's, assigned to it). */
  listAssigned(userId: number, masterId: number) {
    return this.db
      .selectFrom('areas')
      .innerJoin('user_areas', 'user_areas.area_id', 'areas.id')
      .select(mineColumns)
      .where('user_areas.user_id', '=', userId)
      .where('areas.owner_id', '=', masterId)
      .orderBy('areas.id')
      .execute();
  }

  /** How many FBOXes, tanks, miners, sub-account assignments and client records the mine has. */
  async contents(areaId: number) {
    const [fboxes, tanks, miners, subAccounts, clients] = await Promise.all([
      count(this.db, 'fboxes', areaId),
      count(this.db, 'tanks', areaId),
      count(this.db, 'miners', areaId),
      count(this.db, 'user_areas', areaId),
      count(this.db, 'mqtt_clients', areaId),
    ]);
    return { fboxes, tanks, miners, sub_accounts: subAccounts, clients };
  }

  async deviceIds(areaId: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('fboxes')
      .select('device_id')
      .where('area_id', '=', areaId)
      .execute();
    return rows.map((row) => row.device_id);
  }

  /** The FBOX of a gateway client key in a mine. */
  findGateway(areaId: number, clientKey: string) {
    return this.db
      .selectFrom('fboxes')
      .select(['id', 'device_id'])
      .where('area_id', '=', areaId)
      .where('mqtt_username', '=', clientKey)
      .executeTakeFirst();
  }
}
