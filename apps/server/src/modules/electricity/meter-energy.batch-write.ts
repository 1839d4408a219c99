import type { BatchWriteModule } from '../../devices/telemetry-writer.js';
import { countReadings, readingsOf } from './meter-energy.js';
import { MeterEnergyRepository } from './meter-energy.repository.js';

/**
 * Counts each telemetry batch's claimed messages into hourly energy per meter, in the batch's
 * transaction (issue 14): three small statements per batch, whatever its size — the meters' last
 * readings and ratios, then the hours and the last readings. A module of its own so that the
 * ingest writer thread loads it (see `BatchWriteModule`).
 */
export const meterEnergyBatchWrite: BatchWriteModule = {
  url: import.meta.url,
  name: 'meterEnergyBatchWrite',
  make:
    ({ dialect }) =>
    async (trx, applied) => {
      const readings = readingsOf(applied);
      if (readings.length === 0) return;
      const repo = new MeterEnergyRepository(trx, dialect);
      const fboxIds = [...new Set(readings.map((r) => r.fbox_id))];
      const stored = await repo.lastReadings(fboxIds);
      const ratios = new Map(
        (await repo.ratios(fboxIds)).map((m) => [`${m.fbox_id}:${m.no}`, m.sensor_ratio]),
      );
      const counted = countReadings(readings, stored, (fboxId, no) => ratios.get(`${fboxId}:${no}`) ?? 1);
      await repo.addHours(counted.hours);
      await repo.saveLastReadings(counted.last);
    },
};
