import type { FboxListQuery } from '@fbox/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { containsText, parseSort } from '../../db/text-match.js';

type Db = Kysely<DB> | Transaction<DB>;

const sortColumns = {
  id: 'fboxes.id',
  name: 'fboxes.name',
  number: 'fboxes.number',
  kind: 'fboxes.kind',
  status: 'fbox_state.online',
  temperature: 'fbox_state.temperature',
  humidity: 'fbox_state.humidity',
  power: 'fbox_state.power_kw',
  hashrate: 'fbox_state.hashrate_total',
  miner_online: 'fbox_state.miner_online',
  miner_offline: 'fbox_state.miner_offline',
  last_seen: 'fbox_state.last_seen_at',
} as const;

const stateColumns = [
  'fbox_state.online',
  'fbox_state.last_seen_at',
  'fbox_state.temperature',
  'fbox_state.humidity',
  'fbox_state.voltage_a',
  'fbox_state.voltage_b',
  'fbox_state.voltage_c',
  'fbox_state.power_kw',
  'fbox_state.meter1_energy_kwh',
  'fbox_state.meter1_power_kw',
  'fbox_state.meter2_energy_kwh',
  'fbox_state.meter2_power_kw',
  'fbox_state.immersion_status',
  'fbox_state.immersion_percent',
  'fbox_state.water_in_temp',
  'fbox_state.water_out_temp',
  'fbox_state.flow_rate',
  'fbox_state.valve_opening',
  'fbox_state.pumps',
  'fbox_state.public_ip',
  'fbox_state.hashrate_total',
  'fbox_state.energy_day_start_kwh',
  'fbox_state.energy_day',
  'fbox_state.miner_online',
  'fbox_state.miner_offline',
] as const;

/** Kysely queries for FBOXes of one area; every query is scoped by `area_id`. */
export class FboxRepository {
  constructor(private readonly db: Db) {}

  private base(areaId: number) {
    return this.db
      .selectFrom('fboxes')
      .leftJoin('fbox_state', 'fbox_state.fbox_id', 'fboxes.id')
      .where('fboxes.area_id', '=', areaId);
  }

  async list(q: FboxListQuery) {
    let query = this.base(q.area_id);
    if (q.keyword)
      query = query.where((eb) =>
        eb.or([
          containsText('fboxes.name', q.keyword!),
          containsText('fboxes.number', q.keyword!),
          containsText('fboxes.device_id', q.keyword!),
        ]),
      );
    if (q.status) query = query.where('fbox_state.online', '=', q.status === 'online' ? 1 : 0);
    if (q.kind) query = query.where('fboxes.kind', '=', q.kind);
    const { column, direction } = parseSort(q.sort, sortColumns, 'id');
    const [items, count] = await Promise.all([
      query
        .select([
          'fboxes.id',
          'fboxes.name',
          'fboxes.number',
          'fboxes.kind',
          'fboxes.device_id',
          ...stateColumns,
        ])
        .select((eb) =>
          eb
            .selectFrom('tanks')
            .select(eb.fn.countAll<number>().as('n'))
            .whereRef('tanks.fbox_id', '=', 'fboxes.id')
            .as('tank_count'),
        )
        .orderBy(column as never, direction)
        .orderBy('fboxes.id', direction)
        .limit(q.limit)
        .offset((q.page - 1) * q.limit)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(count.total) };
  }

  find(areaId: number, id: number) {
    return this.base(areaId)
      .where('fboxes.id', '=', id)
      .select([
        'fboxes.id',
        'fboxes.area_id',
        'fboxes.name',
        'fboxes.number',
        'fboxes.kind',
        'fboxes.ip_range',
        'fboxes.voltage_min',
        'fboxes.voltage_max',
        'fboxes.device_id',
        'fboxes.mqtt_username',
        'fboxes.mqtt_password',
        'fboxes.reporting_interval_s',
        'fboxes.settings',
        'fboxes.created_at',
        ...stateColumns,
      ])
      .executeTakeFirst();
  }

  /** Just the identity of a box of the area (scope checks of actions). */
  findIdentity(areaId: number, id: number) {
    return this.db
      .selectFrom('fboxes')
      .select(['id', 'area_id', 'name', 'device_id', 'settings'])
      .where('area_id', '=', areaId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  options(areaId: number) {
    return this.db
      .selectFrom('fboxes')
      .select(['id', 'name', 'kind'])
      .where('area_id', '=', areaId)
      .orderBy('name')
      .orderBy('id')
      .execute();
  }

  /** Every box of the area with the state the electricity and home pages total. */
  listWithState(areaId: number) {
    return this.base(areaId)
      .select(['fboxes.id', 'fboxes.name', ...stateColumns])
      .orderBy('fboxes.name')
      .orderBy('fboxes.id')
      .execute();
  }

  collectors(fboxId: number) {
    return this.db
      .selectFrom('fbox_collectors')
      .selectAll()
      .where('fbox_id', '=', fboxId)
      .orderBy('no')
      .execute();
  }

  meters(fboxIds: number[]) {
    if (fboxIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('fbox_meters')
      .selectAll()
      .where('fbox_id', 'in', fboxIds)
      .orderBy('no')
      .execute();
  }

  tanks(fboxId: number) {
    return this.db
      .selectFrom('tanks')
      .leftJoin('tank_state', 'tank_state.tank_id', 'tanks.id')
      .select([
        'tanks.id',
        'tanks.name',
        'tanks.no',
        'tanks.work_number',
        'tank_state.online',
        'tank_state.oil_in_temp',
        'tank_state.oil_out_temp',
        'tank_state.liquid_level',
        'tank_state.main_temperatures',
      ])
      .where('tanks.fbox_id', '=', fboxId)
      .orderBy('tanks.no')
      .execute();
  }

  async update(
    id: number,
    values: Partial<{
      name: string;
      number: string;
      kind: 'air' | 'immersion' | 'hydro';
      ip_range: string;
      voltage_min: number;
      voltage_max: number;
      reporting_interval_s: number;
      settings: string;
    }>,
    now: number,
  ): Promise<void> {
    await this.db
      .updateTable('fboxes')
      .set({ ...values, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /** Creates or updates collector `no` of a box with the given fields. */
  async upsertCollector(
    fboxId: number,
    no: number,
    values: { mac?: string; account?: string; password?: string },
  ) {
    if (Object.keys(values).length === 0) return;
    await this.db
      .insertInto('fbox_collectors')
      .values({ fbox_id: fboxId, no, mac: '', account: '', password: '', ...values })
      .onConflict((oc) => oc.columns(['fbox_id', 'no']).doUpdateSet(values))
      .execute();
  }

  async upsertMeter(
    fboxId: number,
    no: number,
    values: {
      meter_number?: string;
      sensor_ratio?: number;
      energy_offset_kwh?: number;
      reset_at?: number | null;
    },
  ) {
    if (Object.keys(values).length === 0) return;
    await this.db
      .insertInto('fbox_meters')
      .values({
        fbox_id: fboxId,
        no,
        meter_number: '',
        sensor_ratio: 1,
        energy_offset_kwh: 0,
        reset_at: null,
        ...values,
      })
      .onConflict((oc) => oc.columns(['fbox_id', 'no']).doUpdateSet(values))
      .execute();
  }

  async delete(areaId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('fboxes')
      .where('area_id', '=', areaId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /** Moves a box with its state, tanks and miners to another area (one transaction, the caller's). */
  async moveToArea(id: number, toAreaId: number, now: number): Promise<void> {
    await this.db
      .updateTable('fboxes')
      .set({ area_id: toAreaId, updated_at: now })
      .where('id', '=', id)
      .execute();
    await this.db.updateTable('fbox_state').set({ area_id: toAreaId }).where('fbox_id', '=', id).execute();
    await this.db.updateTable('tanks').set({ area_id: toAreaId }).where('fbox_id', '=', id).execute();
    await this.db.updateTable('tank_state').set({ area_id: toAreaId }).where('fbox_id', '=', id).execute();
    await this.db.updateTable('miners').set({ area_id: toAreaId }).where('fbox_id', '=', id).execute();
    await this.db.updateTable('miner_info').set({ area_id: toAreaId }).where('fbox_id', '=', id).execute();
  }
}
