import { limits } from '@fbox/contracts';
import type { QueuedTelemetry } from '../../devices/telemetry-writer.js';
import type { MeterHour, MeterReadingStateTable } from './meter-energy.schema.js';

/** The rules of energy from meter readings (docs/statistics.md "Energy from meter readings"). */

const hourMs = 3_600_000;

/** Start of the UTC hour of `ts`. */
export const hourOf = (ts: number): number => Math.floor(ts / hourMs) * hourMs;

/** One meter's reading in a message: its register, as reported. */
export interface MeterReading {
  fbox_id: number;
  no: number;
  ts: number;
  energy_kwh: number;
}

const meterKey = (fboxId: number, no: number) => `${fboxId}:${no}`;

/** The readings of claimed messages, in their order; -999 (no reading) and negatives are no data. */
export const readingsOf = (applied: readonly QueuedTelemetry[]): MeterReading[] =>
  applied.flatMap(({ fbox, msg }) =>
    msg.box.meters
      .filter((m) => m.energy_kwh !== limits.noData && m.energy_kwh >= 0 && Number.isFinite(m.energy_kwh))
      .map((m) => ({ fbox_id: fbox.id, no: m.no, ts: msg.ts, energy_kwh: m.energy_kwh })),
  );

/**
 * A reading below the previous one is a reset (the register restarted: a reset, a rollover, a new
 * meter) only when it fell below this share of the previous; a smaller drop is a glitch of the
 * reading (noise, a rounding of the gateway), which adds nothing and does not lower the baseline.
 * Without it, a 0.01 kWh wobble on a 50,000 kWh register would count 50,000 kWh at once.
 */
export const resetBelowShare = 0.5;

/** One reading against the meter's baseline (`undefined`: its first reading ever). */
export const stepOf = (baseline: number | undefined, reading: number) => {
  const drop = baseline !== undefined && reading < baseline;
  const reset = drop && reading < baseline * resetBelowShare;
  const glitch = drop && !reset;
  const increase = baseline === undefined || glitch ? 0 : reset ? reading : reading - baseline;
  return { reset, glitch, increase };
};

export interface CountedReadings {
  /** Hourly rows to add to what is stored (energy, resets and readings add up). */
  hours: MeterHour[];
  /** The meters' new last readings. */
  last: MeterReadingStateTable[];
}

/**
 * Counts readings (oldest first per meter) against each meter's last counted reading: the increase
 * over it, or the whole reading after a reset (`stepOf`), times the sensor ratio, goes to the hour
 * of the newer reading. A reading not newer than the last one counted is skipped: its increase is
 * already inside the later reading's. A meter's first reading ever is its baseline (no energy).
 * Each hour and the meter's state carry the meter's running totals after their last reading: counted
 * readings only ever extend the series, so those are the totals to the end of the hour.
 */
export const countReadings = (
  readings: readonly MeterReading[],
  stored: readonly MeterReadingStateTable[],
  ratioOf: (fboxId: number, no: number) => number,
): CountedReadings => {
  const last = new Map(stored.map((s) => [meterKey(s.fbox_id, s.no), s]));
  const changed = new Map<string, MeterReadingStateTable>();
  const hours = new Map<string, MeterHour>();
  for (const r of readings) {
    const key = meterKey(r.fbox_id, r.no);
    const prev = last.get(key);
    if (prev && r.ts <= Number(prev.ts)) continue;
    const ratio = ratioOf(r.fbox_id, r.no);
    const { reset, glitch, increase } = stepOf(
      prev === undefined ? undefined : Number(prev.energy_kwh),
      r.energy_kwh,
    );
    const energy = increase * ratio;
    // The meter's running totals after this reading (the hour's row carries its last ones).
    const cum_energy_kwh = Number(prev?.cum_energy_kwh ?? 0) + energy;
    const cum_resets = Number(prev?.cum_resets ?? 0) + (reset ? 1 : 0);
    const cum_readings = Number(prev?.cum_readings ?? 0) + 1;
    const hour_ts = hourOf(r.ts);
    const hourKey = `${key}:${hour_ts}`;
    const hour = hours.get(hourKey);
    if (hour) {
      hour.energy_kwh += energy;
      hour.resets += reset ? 1 : 0;
      hour.readings += 1;
      hour.last_ts = r.ts;
      hour.last_reading = r.energy_kwh;
      hour.sensor_ratio = ratio;
      Object.assign(hour, { cum_energy_kwh, cum_resets, cum_readings });
    } else {
      hours.set(hourKey, {
        fbox_id: r.fbox_id,
        no: r.no,
        hour_ts,
        energy_kwh: energy,
        resets: reset ? 1 : 0,
        readings: 1,
        first_ts: r.ts,
        first_reading: r.energy_kwh,
        last_ts: r.ts,
        last_reading: r.energy_kwh,
        sensor_ratio: ratio,
        cum_energy_kwh,
        cum_resets,
        cum_readings,
      });
    }
    // After a glitch the baseline stays at the higher reading: the register did not really go back.
    const next = {
      fbox_id: r.fbox_id,
      no: r.no,
      ts: r.ts,
      energy_kwh: glitch ? Number(prev!.energy_kwh) : r.energy_kwh,
      cum_energy_kwh,
      cum_resets,
      cum_readings,
    };
    last.set(key, next);
    changed.set(key, next);
  }
  return { hours: [...hours.values()], last: [...changed.values()] };
};
