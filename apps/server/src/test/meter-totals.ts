import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { DB } from '../db/schema.js';

/**
 * Asserts that every meter hour's running totals equal the sums of its meter's hours so far, and
 * that each meter's last counted reading carries its last hour's totals (migration 0026).
 */
export const expectMeterTotalsConsistent = async (db: Kysely<DB>): Promise<void> => {
  const hours = await db
    .selectFrom('meter_energy_hourly')
    .select([
      'fbox_id',
      'no',
      'hour_ts',
      'energy_kwh',
      'resets',
      'readings',
      'cum_energy_kwh',
      'cum_resets',
      'cum_readings',
    ])
    .orderBy('fbox_id')
    .orderBy('no')
    .orderBy('hour_ts')
    .execute();
  const running = new Map<string, { energy: number; resets: number; readings: number }>();
  for (const h of hours) {
    const key = `${h.fbox_id}:${h.no}`;
    const sum = running.get(key) ?? { energy: 0, resets: 0, readings: 0 };
    sum.energy += Number(h.energy_kwh);
    sum.resets += Number(h.resets);
    sum.readings += Number(h.readings);
    running.set(key, sum);
    expect(Number(h.cum_energy_kwh), `${key} @ ${h.hour_ts}`).toBeCloseTo(sum.energy, 6);
    expect(Number(h.cum_resets)).toBe(sum.resets);
    expect(Number(h.cum_readings)).toBe(sum.readings);
  }
  const states = await db
    .selectFrom('meter_reading_state')
    .select(['fbox_id', 'no', 'cum_energy_kwh', 'cum_resets', 'cum_readings'])
    .execute();
  for (const s of states) {
    const sum = running.get(`${s.fbox_id}:${s.no}`) ?? { energy: 0, resets: 0, readings: 0 };
    expect(Number(s.cum_energy_kwh)).toBeCloseTo(sum.energy, 6);
    expect(Number(s.cum_resets)).toBe(sum.resets);
    expect(Number(s.cum_readings)).toBe(sum.readings);
  }
};
