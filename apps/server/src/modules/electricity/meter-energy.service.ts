import { type PowerStatistic, type PowerStatisticQuery, timeZoneOffsetMinutes } from '@fbox/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import type { QueuedTelemetry } from '../../devices/telemetry-writer.js';
import type { AreaService } from '../area/area.service.js';
import type { AreaCaller } from '../auth/auth.service.js';
import { notFound } from '../device-access.js';
import { UserRepository } from '../user/user.repository.js';
import { countReadings, readingsOf } from './meter-energy.js';

/** kWh and money to 3 decimals: what a table shows, without float noise. */
const round = (value: number) => Math.round(value * 1000) / 1000;

import { type EnergyQuery, type MeterEnergy, MeterEnergyRepository } from './meter-energy.repository.js';

/**
 * Energy per meter from the meters' accumulated readings (issue 14): counted into hourly rows in
 * each telemetry batch's transaction, summed per hour, day or month in the user's zone on read.
 */
export class MeterEnergyService {
  constructor(private readonly deps: { db: Kysely<DB>; dialect: Dialect; areas: AreaService }) {}

  /**
   * Counts a batch's claimed messages (ingest's batch write): three small statements per batch,
   * whatever its size — the meters' last readings and ratios, then the hours and the last readings.
   */
  async record(trx: Transaction<DB>, applied: readonly QueuedTelemetry[]): Promise<void> {
    const readings = readingsOf(applied);
    if (readings.length === 0) return;
    const repo = new MeterEnergyRepository(trx, this.deps.dialect);
    const fboxIds = [...new Set(readings.map((r) => r.fbox_id))];
    const stored = await repo.lastReadings(fboxIds);
    const ratios = new Map((await repo.ratios(fboxIds)).map((m) => [`${m.fbox_id}:${m.no}`, m.sensor_ratio]));
    const counted = countReadings(readings, stored, (fboxId, no) => ratios.get(`${fboxId}:${no}`) ?? 1);
    await repo.addHours(counted.hours);
    await repo.saveLastReadings(counted.last);
  }

  /**
   * Power statistics of a mine the caller sees: energy per FBOX (its meters summed) and bucket of
   * the reader's time zone, costed at the mine's electricity price. An FBOX of another mine answers
   * "not found".
   */
  async statistic(user: AreaCaller, q: PowerStatisticQuery): Promise<PowerStatistic> {
    await this.deps.areas.requireAccess(user, q.area_id);
    const repo = new MeterEnergyRepository(this.deps.db, this.deps.dialect);
    const fboxes = await repo.boxesOf(q.area_id, q.fbox_id);
    if (q.fbox_id !== undefined && fboxes.length === 0) notFound();
    const zone = (await new UserRepository(this.deps.db).timeZone(user.id)) ?? 'UTC+0';
    const energy = await repo.energyByPeriod({
      fboxIds: fboxes.map((f) => f.id),
      from: q.from,
      to: q.to,
      bucket: q.bucket,
      tzOffsetMinutes: timeZoneOffsetMinutes(zone),
    });
    const price = await repo.priceOf(q.area_id);
    const byBox = new Map<string, PowerStatistic['rows'][number]>();
    for (const e of energy) {
      const key = `${e.fbox_id}:${e.bucket_ts}`;
      const row = byBox.get(key) ?? {
        bucket_ts: e.bucket_ts,
        fbox_id: e.fbox_id,
        energy_kwh: 0,
        cost: 0,
        resets: 0,
      };
      row.energy_kwh += e.energy_kwh;
      row.resets += e.resets;
      byBox.set(key, row);
    }
    const rows = [...byBox.values()]
      .map((r) => ({ ...r, energy_kwh: round(r.energy_kwh), cost: round(r.energy_kwh * price) }))
      .sort((a, b) => a.bucket_ts - b.bucket_ts || a.fbox_id - b.fbox_id);
    const total = rows.reduce((sum, r) => sum + r.energy_kwh, 0);
    return {
      bucket: q.bucket,
      time_zone: zone,
      price,
      fboxes,
      rows,
      total_kwh: round(total),
      total_cost: round(total * price),
      resets: rows.reduce((sum, r) => sum + r.resets, 0),
    };
  }

  /** Energy (kWh) and resets per box, meter and bucket; see `MeterEnergyRepository.energyByPeriod`. */
  energyByPeriod(query: EnergyQuery): Promise<MeterEnergy[]> {
    return new MeterEnergyRepository(this.deps.db, this.deps.dialect).energyByPeriod(query);
  }
}
