import { describe, expect, it } from 'vitest';
import { telemetry } from '../../test/mqtt-client.js';
import { isWorse, minerReading, observe } from './alarm-conditions.js';

const voltage = {
  metric: 'fbox_voltage_out_of_range',
  threshold: 342,
  threshold_max: 418,
  hysteresis: 5,
} as const;
const level = { metric: 'liquid_level_low', threshold: 80, threshold_max: null, hysteresis: 2 } as const;

describe('alert conditions', () => {
  it('reads a range by its worst phase and recovers only inside the narrowed range', () => {
    expect(observe(voltage, { values: [400, 340, 420] })).toEqual({
      verdict: 'fire',
      value: 340,
      detail: '',
    });
    expect(observe(voltage, { values: [400, 345, 414] })?.verdict).toBe('hold');
    expect(observe(voltage, { values: [400, 348, 412] })?.verdict).toBe('clear');
    expect(observe(voltage, { values: [-999, 430, -999] })).toMatchObject({ verdict: 'fire', value: 430 });
    expect(observe(voltage, { values: [-999, -999, -999] })).toBeNull();
    expect(isWorse(voltage, 330, 425)).toBe(true);
    expect(isWorse(voltage, 420, 340)).toBe(false);
  });

  it('reads a low metric upwards: below fires, above threshold + margin clears', () => {
    expect(observe(level, { values: [79] })?.verdict).toBe('fire');
    expect(observe(level, { values: [81.5] })?.verdict).toBe('hold');
    expect(observe(level, { values: [82.5] })?.verdict).toBe('clear');
    expect(isWorse(level, 70, 75)).toBe(true);
  });

  it('has no data for an offline miner but its offline state, nor a hashrate without both figures', () => {
    const [miner] = telemetry({ seq: 1, ts: 1, miners: 1 }).miners;
    const offline = { ...miner!, online: false, fault: 'fan' };
    expect(minerReading('chip_temp_high', offline)).toBeNull();
    expect(minerReading('miner_fault', offline)).toBeNull();
    expect(minerReading('miner_offline', offline)).toEqual({ holds: true });
    expect(minerReading('hashrate_low_pct', { ...miner!, hashrate_theoretical: -999 })).toBeNull();
    expect(minerReading('hashrate_low_pct', { ...miner!, hashrate_theoretical: 0 })).toBeNull();
    expect(minerReading('miner_fault', { ...miner!, fault: 'chain' })).toEqual({
      holds: true,
      detail: 'chain',
    });
  });
});
