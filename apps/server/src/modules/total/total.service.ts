import type { AppIndex } from '@fbox/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { todayEnergy } from '../../devices/device-values.js';
import { fillBuckets, readSeries, round } from '../../devices/history.js';
import type { AreaCaller } from '../auth/auth.service.js';
import type { DeviceDeps } from '../device-access.js';
import { FboxRepository } from '../fbox/fbox.repository.js';
import { MinerRepository } from '../miner/miner.repository.js';
import { TankRepository } from '../tank/tank.repository.js';

type Caller = AreaCaller;

const HOUR = 3_600_000;
/** The FBOXes' hashrate and power series (raw, 1-minute and 1-hour rollups): the home page's and the boards' 24 h chart. */
const fboxSeriesTables = {
  raw: 'fbox_samples',
  m1: 'fbox_samples_1m',
  h1: 'fbox_samples_1h',
  idColumn: 'fbox_id',
  metrics: { hashrate: 'hashrate_total', power_kw: 'power_kw' },
} as const;

const split = (rows: { online: number | null; n: number }[]) => {
  let online = 0;
  let offline = 0;
  for (const r of rows) {
    if (r.online === 1) online += Number(r.n);
    else offline += Number(r.n);
  }
  return { online, offline };
};

type BoxState = Awaited<ReturnType<FboxRepository['listWithState']>>[number];

const positive = (v: number | null) => (v !== null && v > 0 ? v : 0);

/** Hashrate (TH/s) and power (kW) of the online boxes now, and their energy today. */
export const liveTotals = (boxes: readonly BoxState[], now: number) => ({
  hashrate: round(boxes.reduce((sum, b) => sum + (b.online === 1 ? positive(b.hashrate_total) : 0), 0)),
  power_kw: round(boxes.reduce((sum, b) => sum + (b.online === 1 ? positive(b.power_kw) : 0), 0)),
  today_energy_kwh: round(boxes.reduce((sum, b) => sum + Math.max(0, todayEnergy(b, now)), 0)),
});

/** The boxes' hashrate and power summed per hour over the last 24 hours (this hour included). */
export const last24h = async (db: Kysely<DB>, fboxIds: number[], now: number) => {
  const to = Math.floor(now / HOUR) * HOUR + HOUR;
  const from = to - 24 * HOUR;
  const { buckets } = await readSeries(db, fboxSeriesTables, fboxIds, HOUR, from, to);
  return { bucket_ms: HOUR, points: fillBuckets(buckets, ['hashrate', 'power_kw'] as const, HOUR, from, to) };
};

/** The home page summary of a mine (`fbox.total/getappindex`). */
export class TotalService {
  constructor(private readonly deps: DeviceDeps) {}

  async appIndex(user: Caller, areaId: number): Promise<AppIndex> {
    await this.deps.areas.requireAccess(user, areaId);
    const db = this.deps.db;
    const now = this.deps.clock();
    const [boxes, tanks, miners] = await Promise.all([
      new FboxRepository(db).listWithState(areaId),
      new TankRepository(db).countByOnline(areaId),
      new MinerRepository(db, this.deps.dbDialect).countByOnline(areaId),
    ]);
    return {
      fbox: split(boxes.map((b) => ({ online: b.online, n: 1 }))),
      tank: split(tanks),
      miner: split(miners),
      ...liveTotals(boxes, now),
      series: await last24h(
        db,
        boxes.map((b) => b.id),
        now,
      ),
    };
  }
}
