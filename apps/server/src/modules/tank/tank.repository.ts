import type { TankListQuery } from '@fbox/contracts';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.js';
import { containsText, parseSort } from '../../db/text-match.js';

const sortColumns = {
  id: 'tanks.id',
  name: 'tanks.name',
  no: 'tanks.no',
  work_number: 'tanks.work_number',
  fbox_name: 'fboxes.name',
  status: 'tank_state.online',
  oil_in_temp: 'tank_state.oil_in_temp',
  oil_out_temp: 'tank_state.oil_out_temp',
  liquid_level: 'tank_state.liquid_level',
  energy_saving: 'tank_state.energy_saving',
  control_mode: 'tank_state.control_mode',
  miner_count: 'miner_count',
  hashrate: 'hashrate',
} as const;

/** Kysely queries for tanks of one area, with their state and their miners' totals. */
export class TankRepository {
  constructor(private readonly db: Kysely<DB>) {}

  private base(areaId: number) {
    return this.db
      .selectFrom('tanks')
      .innerJoin('fboxes', 'fboxes.id', 'tanks.fbox_id')
      .leftJoin('tank_state', 'tank_state.tank_id', 'tanks.id')
      .leftJoin(
        (eb) =>
          eb
            .selectFrom('miner_state')
            .select([
              'miner_state.tank_id',
              sql<number>`count(*)`.as('miner_count'),
              sql<number>`sum(miner_state.online)`.as('miner_online'),
              sql<number>`sum(case when miner_state.hashrate_realtime > 0 then miner_state.hashrate_realtime else 0 end)`.as(
                'hashrate',
              ),
            ])
            .where('miner_state.area_id', '=', areaId)
            .where('miner_state.tank_id', 'is not', null)
            .groupBy('miner_state.tank_id')
            .as('m'),
        (join) => join.onRef('m.tank_id', '=', 'tanks.id'),
      )
      .where('tanks.area_id', '=', areaId);
  }

  private columns() {
    return [
      'tanks.id',
      'tanks.area_id',
      'tanks.name',
      'tanks.no',
      'tanks.work_number',
      'tanks.fbox_id',
      'fboxes.name as fbox_name',
      'tank_state.online',
      'tank_state.oil_in_temp',
      'tank_state.oil_out_temp',
      'tank_state.liquid_level',
      'tank_state.fans',
      'tank_state.oil_pump_efficiency',
      'tank_state.water_in_temp',
      'tank_state.water_speed',
      'tank_state.short_circuit',
      'tank_state.energy_saving',
      'tank_state.control_mode',
      'tank_state.main_temperatures',
      'tank_state.updated_at',
      'm.miner_count',
      'm.miner_online',
      'm.hashrate',
    ] as const;
  }

  async list(q: TankListQuery) {
    let query = this.base(q.area_id);
    if (q.fbox_id !== undefined) query = query.where('tanks.fbox_id', '=', q.fbox_id);
    if (q.status)
      query = query.where(sql`coalesce(tank_state.online, 0)`, '=', q.status === 'online' ? 1 : 0);
    if (q.keyword)
      query = query.where((eb) =>
        eb.or([containsText('tanks.name', q.keyword!), containsText('tanks.work_number', q.keyword!)]),
      );
    const { column, direction } = parseSort(q.sort, sortColumns, 'id');
    const order =
      column === 'miner_count' || column === 'hashrate'
        ? sql`coalesce(${sql.ref(`m.${column}`)}, 0)`
        : sql.ref(column);
    const [items, count] = await Promise.all([
      query
        .select(this.columns())
        .orderBy(order, direction)
        .orderBy('tanks.id', direction)
        .limit(q.limit)
        .offset((q.page - 1) * q.limit)
        .execute(),
      this.db
        .selectFrom('tanks')
        .leftJoin('tank_state', 'tank_state.tank_id', 'tanks.id')
        .where('tanks.area_id', '=', q.area_id)
        .$if(q.fbox_id !== undefined, (qb) => qb.where('tanks.fbox_id', '=', q.fbox_id!))
        .$if(q.status !== undefined, (qb) =>
          qb.where(sql`coalesce(tank_state.online, 0)`, '=', q.status === 'online' ? 1 : 0),
        )
        .$if(Boolean(q.keyword), (qb) =>
          qb.where((eb) =>
            eb.or([containsText('tanks.name', q.keyword!), containsText('tanks.work_number', q.keyword!)]),
          ),
        )
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(count.total) };
  }

  find(areaId: number, id: number) {
    return this.base(areaId)
      .where('tanks.id', '=', id)
      .select([...this.columns(), 'fboxes.id as fbox_key'])
      .select((eb) =>
        eb
          .selectFrom('fbox_state')
          .select('fbox_state.online')
          .whereRef('fbox_state.fbox_id', '=', 'fboxes.id')
          .as('fbox_online'),
      )
      .executeTakeFirst();
  }

  /** Tanks of the area with their FBOX's device data (command targets). */
  findMany(areaId: number, ids: number[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('tanks')
      .select(['id', 'fbox_id', 'no', 'name'])
      .where('area_id', '=', areaId)
      .where('id', 'in', ids)
      .execute();
  }

  search(areaId: number, keyword: string) {
    return this.db
      .selectFrom('tanks')
      .innerJoin('fboxes', 'fboxes.id', 'tanks.fbox_id')
      .select(['tanks.id', 'tanks.name', 'fboxes.name as fbox_name'])
      .where('tanks.area_id', '=', areaId)
      .$if(keyword !== '', (qb) =>
        qb.where((eb) =>
          eb.or([containsText('tanks.name', keyword), containsText('tanks.work_number', keyword)]),
        ),
      )
      .orderBy('tanks.name')
      .orderBy('tanks.id')
      .limit(50)
      .execute();
  }

  options(areaId: number, fboxId: number) {
    return this.db
      .selectFrom('tanks')
      .select(['id', 'name', 'no'])
      .where('area_id', '=', areaId)
      .where('fbox_id', '=', fboxId)
      .orderBy('no')
      .execute();
  }

  async nextNo(fboxId: number): Promise<number> {
    const row = await this.db
      .selectFrom('tanks')
      .select((eb) => eb.fn.max('no').as('max'))
      .where('fbox_id', '=', fboxId)
      .executeTakeFirst();
    return Number(row?.max ?? 0) + 1;
  }

  async noTaken(fboxId: number, no: number, exceptId?: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('tanks')
      .select('id')
      .where('fbox_id', '=', fboxId)
      .where('no', '=', no)
      .$if(exceptId !== undefined, (qb) => qb.where('id', '<>', exceptId!))
      .executeTakeFirst();
    return row !== undefined;
  }

  async insert(
    values: { area_id: number; fbox_id: number; no: number; name: string; work_number: string },
    now: number,
  ) {
    const row = await this.db
      .insertInto('tanks')
      .values({ ...values, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(id: number, values: { name?: string; work_number?: string; no?: number }, now: number) {
    await this.db
      .updateTable('tanks')
      .set({ ...values, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /** Deletes a tank of the area and takes its miners out of it, in one transaction. */
  delete(areaId: number, id: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const r = await trx
        .deleteFrom('tanks')
        .where('area_id', '=', areaId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(r.numDeletedRows) !== 1) return false;
      await trx.updateTable('miner_info').set({ tank_id: null }).where('tank_id', '=', id).execute();
      return true;
    });
  }

  /** The area's tanks counted by reported online state (null: never reported). */
  countByOnline(areaId: number) {
    return this.db
      .selectFrom('tanks')
      .leftJoin('tank_state', 'tank_state.tank_id', 'tanks.id')
      .select(['tank_state.online', sql<number>`count(*)`.as('n')])
      .where('tanks.area_id', '=', areaId)
      .groupBy('tank_state.online')
      .execute();
  }
}
