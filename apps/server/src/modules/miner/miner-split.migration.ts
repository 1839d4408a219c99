import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../../db/database.js';

/**
 * The readings a sample brings, in `miner_readings`, beside the rest of a miner's state
 * (`miner_info`); `miner_state`, the view that joins them, is what the screens read.
 *
 * Every sample rewrote its miner's wide state row (25 columns, the sort indexes' keys among them)
 * only to change seven numbers. A narrow row of its own takes that write: on SQLite an upsert of
 * readings alone keyed by the integer primary key ran at 610,000 rows/s against 172,000/s for the
 * wide row, and sustained ingest stored 34,000–35,000 samples/s against 26,000–27,000 on the same
 * machine (docs/performance.md, "Readings in a narrow table"). On PostgreSQL the new version of a
 * row a sample writes is a quarter of the size. `miner_info` is written when a miner's settings
 * change, and is where the list's indexes, the keyword search and the 24-hour hashrate live.
 *
 * The view is a left join on the readings' primary key, so the planner walks `miner_info`'s indexes
 * first and looks each row's readings up (a page of 20 reads 20). Ingest writes both rows of a new
 * miner in one transaction; a miner's deletion removes both (foreign keys, on delete cascade).
 * The keyword index's triggers follow the renamed table; its content table is the view.
 */
/** The readings as this migration moved them (frozen: later changes are migrations of their own). */
const minerReadings = [
  'chip_avg_temp',
  'chip_max_temp',
  'hashrate_realtime',
  'hashrate_avg',
  'power_w',
  'uptime_s',
] as const;

const infoColumns = [
  'miner_id',
  'area_id',
  'fbox_id',
  'tank_id',
  'sn',
  'worker',
  'model',
  'brand',
  'pool',
  'pool_address',
  'ip',
  'firmware',
  'outlet',
  'online',
  'mode',
  'fault',
  'hashrate_theoretical',
  'hashrate_24h',
];

/** The view's columns, in `miner_state`'s order before the split. */
const viewColumns = [
  ...infoColumns.slice(0, 16).map((c) => `miner_info.${c}`),
  'miner_readings.chip_avg_temp',
  'miner_readings.chip_max_temp',
  'miner_info.hashrate_theoretical',
  'miner_readings.hashrate_realtime',
  'miner_readings.hashrate_avg',
  'miner_info.hashrate_24h',
  'miner_readings.power_w',
  'miner_readings.uptime_s',
  'miner_readings.updated_at',
];

const createView = (db: Kysely<unknown>) =>
  sql`create view miner_state as select ${sql.raw(viewColumns.join(', '))}
    from miner_info left join miner_readings on miner_readings.miner_id = miner_info.miner_id`.execute(db);

export const minerSplitMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    let table = db.schema
      .createTable('miner_readings')
      .addColumn('miner_id', 'integer', (c) => c.primaryKey().references('miners.id').onDelete('cascade'));
    for (const name of minerReadings)
      table = table.addColumn(name, 'double precision', (c) => c.notNull().defaultTo(-999));
    await table.addColumn('updated_at', 'bigint', (c) => c.notNull()).execute();
    // PostgreSQL: room on each page for a row's next version, so a sample's update stays HOT.
    if (dialect === 'postgres') await sql`alter table miner_readings set (fillfactor = 70)`.execute(db);
    await sql`insert into miner_readings (miner_id, ${sql.raw(minerReadings.join(', '))}, updated_at)
      select miner_id, ${sql.raw(minerReadings.join(', '))}, updated_at from miner_state`.execute(db);
    await sql`alter table miner_state rename to miner_info`.execute(db);
    for (const name of [...minerReadings, 'updated_at'])
      await sql`alter table miner_info drop column ${sql.id(name)}`.execute(db);
    // Settings change rarely: PostgreSQL's pages of them need no room kept for updates.
    if (dialect === 'postgres') await sql`alter table miner_info reset (fillfactor)`.execute(db);
    await createView(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop view miner_state`.execute(db);
    for (const name of minerReadings)
      await sql`alter table miner_info add column ${sql.id(name)} double precision not null default -999`.execute(
        db,
      );
    await sql`alter table miner_info add column updated_at bigint not null default 0`.execute(db);
    await sql`update miner_info set ${sql.raw(
      [...minerReadings, 'updated_at']
        .map((c) => `${c} = (select r.${c} from miner_readings r where r.miner_id = miner_info.miner_id)`)
        .join(', '),
    )} where miner_id in (select miner_id from miner_readings)`.execute(db);
    await sql`alter table miner_info rename to miner_state`.execute(db);
    if (dialect === 'postgres') await sql`alter table miner_state set (fillfactor = 70)`.execute(db);
    await sql`drop table miner_readings`.execute(db);
  },
});
