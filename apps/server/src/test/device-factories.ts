import type { FastifyInstance } from 'fastify';
import type { Insertable, Kysely, Updateable } from 'kysely';
import type {
  DB,
  FboxKind,
  FboxStateTable,
  MinerInfoTable,
  MinerReadingsTable,
  TankStateTable,
} from '../db/schema.js';
import { minerReadingColumns } from '../devices/telemetry-rows.js';

/** Device rows for HTTP tests: FBOXes, tanks and miners with their latest state, written directly. */

export interface TestFbox {
  id: number;
  areaId: number;
  deviceId: string;
}

export const createFbox = async (
  app: FastifyInstance,
  areaId: number,
  options: { name?: string; kind?: FboxKind; state?: Updateable<FboxStateTable> } = {},
): Promise<TestFbox> => {
  const created = await app.devices.createFbox(areaId, {
    name: options.name ?? `Box ${Math.random().toString(36).slice(2, 8)}`,
    kind: options.kind ?? 'immersion',
  });
  if (options.state) {
    await app.db.updateTable('fbox_state').set(options.state).where('fbox_id', '=', created.id).execute();
  }
  return { id: created.id, areaId, deviceId: created.device_id };
};

export const createTank = async (
  app: FastifyInstance,
  fbox: TestFbox,
  no: number,
  options: { name?: string; state?: Partial<Insertable<TankStateTable>> } = {},
): Promise<number> => {
  const now = app.clock();
  const { id } = await app.db
    .insertInto('tanks')
    .values({
      area_id: fbox.areaId,
      fbox_id: fbox.id,
      no,
      name: options.name ?? `Tank ${no}`,
      work_number: '',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (options.state) {
    await app.db
      .insertInto('tank_state')
      .values({ tank_id: id, area_id: fbox.areaId, fbox_id: fbox.id, updated_at: now, ...options.state })
      .execute();
  }
  return id;
};

/** A miner's state as the `miner_state` view shows it: `miner_info`'s columns and the readings. */
export type MinerStateValues = Partial<
  Omit<Insertable<MinerInfoTable>, 'miner_id'> & Omit<Insertable<MinerReadingsTable>, 'miner_id'>
>;

export type MinerSeed = Omit<MinerStateValues, 'area_id' | 'fbox_id'> & { sn: string };

const readingColumns = new Set<string>(minerReadingColumns.filter((c) => c !== 'miner_id'));

/** Splits state values into the columns of `miner_info` and those of `miner_readings`. */
const splitState = (values: MinerStateValues) => {
  const info: Record<string, unknown> = {};
  const readings: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(values)) {
    if (value !== undefined) (readingColumns.has(column) ? readings : info)[column] = value;
  }
  return { info: info as Updateable<MinerInfoTable>, readings: readings as Updateable<MinerReadingsTable> };
};

/**
 * Sets state columns of some miners (all of them without `ids`), each in its table: what a test
 * would write to `miner_state` if the view took writes.
 */
export const setMinerState = async (
  db: Kysely<DB>,
  values: MinerStateValues,
  ids?: number | readonly number[],
) => {
  const { info, readings } = splitState(values);
  const list = ids === undefined ? undefined : typeof ids === 'number' ? [ids] : [...ids];
  if (Object.keys(info).length > 0) {
    let query = db.updateTable('miner_info').set(info);
    if (list) query = query.where('miner_id', 'in', list);
    await query.execute();
  }
  if (Object.keys(readings).length > 0) {
    let query = db.updateTable('miner_readings').set(readings);
    if (list) query = query.where('miner_id', 'in', list);
    await query.execute();
  }
};

/** The ids of a box's miners. */
export const minerIdsOf = async (db: Kysely<DB>, fboxId: number): Promise<number[]> =>
  (await db.selectFrom('miners').select('id').where('fbox_id', '=', fboxId).execute()).map((r) => r.id);

/** Defaults of every state column: multi-row inserts on SQLite cannot fall back to column defaults. */
const minerDefaults = {
  worker: '',
  model: '',
  brand: '',
  pool: '',
  pool_address: '',
  ip: '',
  firmware: '',
  outlet: null,
  online: 0,
  mode: 'high',
  fault: '',
  chip_avg_temp: -999,
  chip_max_temp: -999,
  hashrate_theoretical: -999,
  hashrate_realtime: -999,
  hashrate_avg: -999,
  hashrate_24h: -999,
  power_w: -999,
  uptime_s: -999,
};

/** Inserts miners (identity + state) in chunks; returns their ids in input order. */
export const createMiners = async (
  app: FastifyInstance,
  fbox: TestFbox,
  miners: MinerSeed[],
): Promise<number[]> => {
  const now = app.clock();
  const ids: number[] = [];
  for (let i = 0; i < miners.length; i += 200) {
    const chunk = miners.slice(i, i + 200);
    const rows = await app.db
      .insertInto('miners')
      .values(
        chunk.map((m) => ({
          area_id: fbox.areaId,
          fbox_id: fbox.id,
          tank_id: m.tank_id ?? null,
          sn: m.sn,
          created_at: now,
        })),
      )
      .returning('id')
      .execute();
    const chunkIds = rows.map((r) => r.id);
    const states = chunk.map((m) =>
      splitState({
        ...minerDefaults,
        updated_at: now,
        ...m,
        area_id: fbox.areaId,
        fbox_id: fbox.id,
        tank_id: m.tank_id ?? null,
      }),
    );
    await app.db
      .insertInto('miner_info')
      .values(states.map((s, j) => ({ ...(s.info as Insertable<MinerInfoTable>), miner_id: chunkIds[j]! })))
      .execute();
    await app.db
      .insertInto('miner_readings')
      .values(
        states.map((s, j) => ({ ...(s.readings as Insertable<MinerReadingsTable>), miner_id: chunkIds[j]! })),
      )
      .execute();
    ids.push(...chunkIds);
  }
  return ids;
};

/** A small deterministic PRNG (mulberry32) so seeded data and generated queries repeat. */
export const prng = (seed: number) => {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
};

/**
 * One FBOX hourly rollup row (`fbox_samples_1h`) as the rollup job writes it: the power's average,
 * minimum and maximum (kW), the total hashrate (TH/s, the same for all three), and fixed container
 * readings (`climate`: temperature °C and humidity %, 30 and 40 unless given).
 */
export const fboxHourRow = (
  fboxId: number,
  ts: number,
  power: { avg: number; min?: number; max?: number },
  hashrate: number,
  climate: { temperature: number; humidity: number } = { temperature: 30, humidity: 40 },
) => ({
  fbox_id: fboxId,
  bucket_ts: ts,
  samples: 60,
  power_kw_avg: power.avg,
  power_kw_min: power.min ?? power.avg,
  power_kw_max: power.max ?? power.avg,
  temperature_avg: climate.temperature,
  temperature_min: climate.temperature,
  temperature_max: climate.temperature,
  humidity_avg: climate.humidity,
  humidity_min: climate.humidity,
  humidity_max: climate.humidity,
  hashrate_total_avg: hashrate,
  hashrate_total_min: hashrate,
  hashrate_total_max: hashrate,
});
