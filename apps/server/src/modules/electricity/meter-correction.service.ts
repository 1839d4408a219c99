import type { MeterCorrection } from '@fbox/contracts';
import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { fieldInvalid } from '../../lib/api-error.js';
import { MeterCorrectionRepository } from './meter-correction.repository.js';
import { hourOf, stepOf } from './meter-energy.js';

/** A reading a person took from the meter's display, to enter where the gateway's are missing. */
export interface EnteredReading {
  fboxId: number;
  no: number;
  /** When it was read (epoch ms). */
  at: number;
  /** The register as shown, kWh (before the sensor ratio). */
  reading: number;
  reason: string;
  userId: number;
  now: number;
}

const round = (value: number) => Math.round(value * 1e6) / 1e6;

/**
 * Meter readings entered by a person (`set_meter_data` with `reading_kwh`, docs/statistics.md
 * "Meter readings entered by hand"). A reading goes into the meter's series as if the gateway had
 * reported it: the increase from the reading before goes to its hour, and the next reported
 * reading is measured from it instead — energy moves between hours, the total up to the next
 * reading stays what the meter says. Readings that contradict their neighbours are refused.
 */
export class MeterCorrectionService {
  constructor(private readonly deps: { db: Kysely<DB>; dialect: Dialect }) {}

  /** Enters a reading and recomputes the one or two hours it touches, in one transaction. */
  enter(e: EnteredReading): Promise<MeterCorrection> {
    if (e.at > e.now) throw fieldInvalid('reading_at', 'rule.readingInFuture');
    return this.deps.db.transaction().execute(async (trx) => {
      const repo = new MeterCorrectionRepository(trx, this.deps.dialect);
      // The same lock as ingest's meter counting: a report of this box waits, or is waited for.
      await repo.lockBox(e.fboxId);
      const hour = hourOf(e.at);
      const same = await repo.hour(e.fboxId, e.no, hour);
      if (same && same.first_ts <= e.at && same.last_ts >= e.at)
        throw fieldInvalid('reading_at', 'rule.readingInsideReadings');
      const prev = await repo.hourBefore(e.fboxId, e.no, e.at, hour);
      const next = await repo.hourAfter(e.fboxId, e.no, e.at, hour);
      const state = await repo.lastReading(e.fboxId, e.no);
      // The baseline before: the meter's counted reading when nothing came after (it stays at the
      // higher reading after a glitch), else the last reading reported before.
      const before = prev && (next || !state ? prev.last_reading : state.energy_kwh);
      const step = stepOf(before, e.reading);
      if (step.glitch) throw fieldInvalid('reading_kwh', 'rule.readingBelowPrevious', { reading: before! });
      if (next && stepOf(e.reading, next.first_reading).glitch)
        throw fieldInvalid('reading_kwh', 'rule.readingAboveNext', { reading: next.first_reading });

      const ratio = next?.sensor_ratio ?? (await repo.configuredRatio(e.fboxId, e.no));
      const energy = step.increase * ratio;
      let nextDelta = 0;
      let nextResets = 0;
      if (next) {
        const was = stepOf(before, next.first_reading);
        const now = stepOf(e.reading, next.first_reading);
        nextDelta = (now.increase - was.increase) * ratio;
        nextResets = Number(now.reset) - Number(was.reset);
      }
      if (!same)
        await repo.insertHour({
          fbox_id: e.fboxId,
          no: e.no,
          hour_ts: hour,
          energy_kwh: energy,
          resets: Number(step.reset),
          readings: 1,
          first_ts: e.at,
          first_reading: e.reading,
          last_ts: e.at,
          last_reading: e.reading,
          sensor_ratio: ratio,
          // The totals before it; shifted with the later hours' below.
          ...(await repo.totalsBefore(e.fboxId, e.no, hour)),
        });
      else {
        // The hour holds readings after it (it becomes the hour's first) or before it (its last).
        const first = same.first_ts > e.at;
        await repo.updateHour(same, {
          energy_kwh: same.energy_kwh + energy + (first ? nextDelta : 0),
          resets: same.resets + Number(step.reset) + (first ? nextResets : 0),
          readings: same.readings + 1,
          ...(first
            ? { first_ts: e.at, first_reading: e.reading }
            : { last_ts: e.at, last_reading: e.reading }),
        });
      }
      if (next && next.hour_ts !== hour)
        await repo.updateHour(next, {
          energy_kwh: next.energy_kwh + nextDelta,
          resets: next.resets + nextResets,
        });
      // The running totals from the reading's hour on (and from the next reading's hour on).
      await repo.shiftTotals(e.fboxId, e.no, hour, energy, Number(step.reset), 1);
      if (next) await repo.shiftTotals(e.fboxId, e.no, next.hour_ts, nextDelta, nextResets, 0);
      // With no later reading, the entered one is the base of the gateway's next.
      if (!next) {
        const own = (await repo.hour(e.fboxId, e.no, hour))!;
        await repo.saveLastReading(e.fboxId, e.no, e.at, e.reading, own);
      }

      const id = await repo.insert({
        fbox_id: e.fboxId,
        no: e.no,
        reading_at: e.at,
        reading_kwh: e.reading,
        reason: e.reason,
        user_id: e.userId,
        created_at: e.now,
        energy_kwh: round(energy),
        next_hour_ts: next?.hour_ts ?? null,
        next_delta_kwh: round(nextDelta),
      });
      return (await repo.list(e.fboxId)).find((c) => c.id === id)!;
    });
  }

  /** The readings entered for a box, newest first. */
  list(fboxId: number): Promise<MeterCorrection[]> {
    return new MeterCorrectionRepository(this.deps.db, this.deps.dialect).list(fboxId);
  }
}
