import type { Kysely, Transaction } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import type { QueuedTelemetry } from '../../devices/telemetry-writer.js';
import { countReadings, readingsOf } from './meter-energy.js';
import { type EnergyQuery, type MeterEnergy, MeterEnergyRepository } from './meter-energy.repository.js';

/**
 * Energy per meter from the meters' accumulated readings (issue 14): counted into hourly rows in
 * each telemetry batch's transaction, summed per hour, day or month in the user's zone on read.
 */
export class MeterEnergyService {
  constructor(private readonly deps: { db: Kysely<DB>; dialect: Dialect }) {}

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

  /** Energy (kWh) and resets per box, meter and bucket; see `MeterEnergyRepository.energyByPeriod`. */
  energyByPeriod(query: EnergyQuery): Promise<MeterEnergy[]> {
    return new MeterEnergyRepository(this.deps.db, this.deps.dialect).energyByPeriod(query);
  }
}
