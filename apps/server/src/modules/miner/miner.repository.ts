import type { MinerExportQuery, MinerSortField } from '@fbox/contracts';
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { DB } from '../../db/schema.js';
import { containsText, parseSort } from '../fbox/device-common.js';
import { poolHijacked } from '../fbox-config/pool-guard.js';

/** Every sortable column of the miner list; ties break on the miner id. */
const sortColumns: Record<MinerSortField, string> = {
  id: 'miner_state.miner_id',
  sn: 'miner_state.sn',
  worker: 'miner_state.worker',
  model: 'miner_state.model',
  brand: 'miner_state.brand',
  pool: 'miner_state.pool',
  pool_address: 'miner_state.pool_address',
  ip: 'miner_state.ip',
  firmware: 'miner_state.firmware',
  fbox_name: 'fboxes.name',
  tank_name: 'tanks.name',
  outlet: 'miner_state.outlet',
  status: 'miner_state.online',
  mode: 'miner_state.mode',
  fault: 'miner_state.fault',
  chip_avg_temp: 'miner_state.chip_avg_temp',
  chip_max_temp: 'miner_state.chip_max_temp',
  hashrate_theoretical: 'miner_state.hashrate_theoretical',
  hashrate_realtime: 'miner_state.hashrate_realtime',
  hashrate_avg: 'miner_state.hashrate_avg',
  hashrate_24h: 'miner_state.hashrate_24h',
  power_w: 'miner_state.power_w',
  uptime_s: 'miner_state.uptime_s',
  updated_at: 'miner_state.updated_at',
};

export const minerColumns = [
  'miner_state.miner_id as id',
  'miner_state.area_id',
  'miner_state.sn',
  'miner_state.worker',
  'miner_state.model',
  'miner_state.brand',
  'miner_state.pool',
  'miner_state.pool_address',
  'miner_state.ip',
  'miner_state.firmware',
  'miner_state.fbox_id',
  'fboxes.name as fbox_name',
  'miner_state.tank_id',
  'tanks.name as tank_name',
  'miner_state.outlet',
  'miner_state.online',
  'miner_state.mode',
  'miner_state.fault',
  'miner_state.chip_avg_temp',
  'miner_state.chip_max_temp',
  'miner_state.hashrate_theoretical',
  'miner_state.hashrate_realtime',
  'miner_state.hashrate_avg',
  'miner_state.hashrate_24h',
  'miner_state.power_w',
  'miner_state.uptime_s',
  'miner_state.updated_at',
] as const;

type Filters = Omit<MinerExportQuery, 'sort'>;

/**
 * Kysely queries for miners. Lists filter, sort and page on `miner_state` (one row per miner, with
 * an index per filter and sort column led by `area_id`); FBOX and tank names join by primary key.
 */
export class MinerRepository {
  constructor(private readonly db: Kysely<DB>) {}

  private filtered<O>(query: SelectQueryBuilder<DB, 'miner_state', O>, f: Filters) {
    let q = query.where('miner_state.area_id', '=', f.area_id);
    if (f.fbox_id !== undefined) q = q.where('miner_state.fbox_id', '=', f.fbox_id);
    if (f.tank_id !== undefined) q = q.where('miner_state.tank_id', '=', f.tank_id);
    if (f.status) q = q.where('miner_state.online', '=', f.status === 'online' ? 1 : 0);
    if (f.model) q = q.where('miner_state.model', '=', f.model);
    if (f.brand) q = q.where('miner_state.brand', '=', f.brand);
    if (f.pool) q = q.where('miner_state.pool', '=', f.pool);
    if (f.mode) q = q.where('miner_state.mode', '=', f.mode);
    if (f.fault === 'any') q = q.where('miner_state.fault', '<>', '');
    else if (f.fault === 'none') q = q.where('miner_state.fault', '=', '');
    else if (f.fault) q = q.where('miner_state.fault', '=', f.fault);
    if (f.pool_hijacked) q = q.where(poolHijacked);
    if (f.keyword) {
      const keyword = f.keyword;
      q = q.where((eb) =>
        eb.or([
          containsText('miner_state.worker', keyword),
          containsText('miner_state.ip', keyword),
          containsText('miner_state.sn', keyword),
        ]),
      );
    }
    return q;
  }

  /** How many miners match the filter. */
  async count(f: Filters): Promise<number> {
    const row = await this.filtered(this.db.selectFrom('miner_state'), f)
      .select(sql<number>`count(*)`.as('total'))
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  /**
   * The sorted, filtered rows; `limit` rows from `offset`. Two steps: the ids of the page (narrow
   * rows, so skipped rows cost little), then those miners' full rows, in the page's order.
   */
  async page(f: Filters & { sort?: string | undefined }, limit: number, offset: number) {
    const { column, direction } = parseSort(f.sort, sortColumns, 'id');
    // Missing values sort as the largest on both dialects (PostgreSQL's default, so its indexes
    // serve); ties break on the id in the same direction, so one index walk orders the page.
    const nullable = column === 'tanks.name' || column === 'miner_state.outlet';
    let ids = this.filtered(this.db.selectFrom('miner_state'), f);
    if (column === 'fboxes.name') ids = ids.leftJoin('fboxes', 'fboxes.id', 'miner_state.fbox_id');
    if (column === 'tanks.name') ids = ids.leftJoin('tanks', 'tanks.id', 'miner_state.tank_id');
    const page = await ids
      .select('miner_state.miner_id')
      .orderBy(
        sql.ref(column),
        nullable ? (ob) => (direction === 'asc' ? ob.asc().nullsLast() : ob.desc().nullsFirst()) : direction,
      )
      .orderBy('miner_state.miner_id', direction)
      .limit(limit)
      .offset(offset)
      .execute();
    if (page.length === 0) return [];
    const rows = await this.db
      .selectFrom('miner_state')
      .leftJoin('fboxes', 'fboxes.id', 'miner_state.fbox_id')
      .leftJoin('tanks', 'tanks.id', 'miner_state.tank_id')
      .select(minerColumns)
      .where(
        'miner_state.miner_id',
        'in',
        page.map((r) => r.miner_id),
      )
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return page.flatMap((r) => byId.get(r.miner_id) ?? []);
  }

  find(areaId: number, id: number) {
    return this.db
      .selectFrom('miner_state')
      .leftJoin('fboxes', 'fboxes.id', 'miner_state.fbox_id')
      .leftJoin('tanks', 'tanks.id', 'miner_state.tank_id')
      .select(minerColumns)
      .where('miner_state.area_id', '=', areaId)
      .where('miner_state.miner_id', '=', id)
      .executeTakeFirst();
  }

  /** Miners of the area among `ids`, with what a command needs to reach them. */
  findTargets(areaId: number, ids: number[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('miners')
      .leftJoin('miner_state', 'miner_state.miner_id', 'miners.id')
      .select(['miners.id', 'miners.fbox_id', 'miners.tank_id', 'miners.sn', 'miner_state.outlet'])
      .where('miners.area_id', '=', areaId)
      .where('miners.id', 'in', ids)
      .execute();
  }

  async delete(areaId: number, ids: number[]): Promise<number> {
    if (ids.length === 0) return 0;
    const r = await this.db
      .deleteFrom('miners')
      .where('area_id', '=', areaId)
      .where('id', 'in', ids)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  async distinct(areaId: number, column: 'model' | 'brand' | 'pool' | 'fault'): Promise<string[]> {
    const rows = await this.db
      .selectFrom('miner_state')
      .select(`miner_state.${column} as value`)
      .distinct()
      .where('miner_state.area_id', '=', areaId)
      .where(`miner_state.${column}`, '<>', '')
      .orderBy('value')
      .limit(500)
      .execute();
    return rows.map((r) => r.value);
  }
}
