import type { FastifyInstance } from 'fastify';
import type { Insertable, Updateable } from 'kysely';
import type { FboxKind, FboxStateTable, MinerStateTable, TankStateTable } from '../db/schema.js';

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

export type MinerSeed = Partial<Omit<Insertable<MinerStateTable>, 'miner_id' | 'area_id' | 'fbox_id'>> & {
  sn: string;
};

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
    await app.db
      .insertInto('miner_state')
      .values(
        chunk.map((m, j) => ({
          ...minerDefaults,
          updated_at: now,
          ...m,
          miner_id: chunkIds[j]!,
          area_id: fbox.areaId,
          fbox_id: fbox.id,
          tank_id: m.tank_id ?? null,
        })),
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
