import { describe, expect, it } from 'vitest';
import { telemetry } from '../../test/mqtt-client.js';
import { fboxReading, isWorse, minerReading, observe, tankReading } from './alarm-conditions.js';

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

  it('misses a meter when a box reporting meters lacks a position or reads -999, not when it has none', () => {
    const { box } = telemetry({ seq: 1, ts: 1 });
    expect(fboxReading('meter_missing', box)).toEqual({ holds: false, detail: '' });
    expect(fboxReading('meter_missing', { ...box, meters: [box.meters[0]!] })).toEqual({
      holds: true,
      detail: '#2',
    });
    const noEnergy = { ...box.meters[0]!, energy_kwh: -999 };
    expect(fboxReading('meter_missing', { ...box, meters: [noEnergy, box.meters[1]!] })).toEqual({
      holds: true,
      detail: '#1',
    });
    expect(fboxReading('meter_missing', { ...box, meters: [] })).toBeNull();
  });

  it('reads flow low on hydro boxes only, with its hysteresis', () => {
    const { box } = telemetry({ seq: 1, ts: 1 });
    const flow = { metric: 'flow_low', threshold: 2, threshold_max: null, hysteresis: 0.5 } as const;
    expect(fboxReading('flow_low', box)).toBeNull();
    expect(observe(flow, fboxReading('flow_low', { ...box, flow_rate: 0.9 }))).toEqual({
      verdict: 'fire',
      value: 0.9,
      detail: '',
    });
    expect(observe(flow, fboxReading('flow_low', { ...box, flow_rate: 2.3 }))?.verdict).toBe('hold');
    expect(observe(flow, fboxReading('flow_low', { ...box, flow_rate: 38 }))?.verdict).toBe('clear');
    expect(observe(flow, fboxReading('flow_low', { ...box, flow_rate: -999 }))).toBeNull();
  });

  it('faults a water pump switched on at speed 0, not one switched off', () => {
    const { box } = telemetry({ seq: 1, ts: 1 });
    const pumps = (...list: [string, number][]) => ({
      ...box,
      pumps: list.map(([status, speed], i) => ({ no: i + 1, status: status as 'on' | 'off', speed })),
    });
    expect(fboxReading('pump_fault', box)).toBeNull();
    expect(fboxReading('pump_fault', pumps(['on', 4500], ['on', 0]))).toEqual({ holds: true, detail: '#2' });
    expect(fboxReading('pump_fault', pumps(['on', 4500], ['off', 0]))).toEqual({ holds: false, detail: '' });
    expect(fboxReading('pump_fault', pumps(['on', -999]))).toBeNull();
  });

  it('faults a tank drive at 0 in auto mode only, naming the fans', () => {
    const [tank] = telemetry({ seq: 1, ts: 1, tanks: 1 }).tanks;
    expect(tankReading('fan_fault', tank!)).toEqual({ holds: false, detail: '' });
    expect(tankReading('tank_pump_fault', tank!)).toEqual({ holds: false });
    const stopped = { ...tank!, fans: [0, 1300, 0, -999], oil_pump_efficiency: 0 };
    expect(tankReading('fan_fault', stopped)).toEqual({ holds: true, detail: '#1,#3' });
    expect(tankReading('tank_pump_fault', stopped)).toEqual({ holds: true });
    const manual = { ...stopped, control_mode: 'manual' as const };
    expect(tankReading('fan_fault', manual)).toBeNull();
    expect(tankReading('tank_pump_fault', manual)).toBeNull();
    expect(tankReading('tank_pump_fault', { ...tank!, oil_pump_efficiency: -999 })).toBeNull();
  });

  it('hijacks a miner off its configured pool or worker, and knows nothing without one', () => {
    const [miner] = telemetry({ seq: 1, ts: 1, miners: 1 }).miners;
    const configured = { pool_address: 'stratum+tcp://btc.viabtc.io:3333', worker: 'acct.1x0' };
    expect(minerReading('pool_hijacked', miner!)).toBeNull();
    expect(minerReading('pool_hijacked', miner!, configured)).toEqual({ holds: false, detail: '' });
    // The scheme is implied: host:port is the same pool.
    const bare = { ...miner!, pool_address: 'btc.viabtc.io:3333' };
    expect(minerReading('pool_hijacked', bare, configured)).toEqual({ holds: false, detail: '' });
    const evil = { ...miner!, pool_address: 'stratum+tcp://evil.example:3333' };
    expect(minerReading('pool_hijacked', evil, configured)).toEqual({
      holds: true,
      detail: 'stratum+tcp://evil.example:3333',
    });
    expect(minerReading('pool_hijacked', { ...miner!, worker: 'thief.1' }, configured)).toMatchObject({
      holds: true,
    });
    expect(
      minerReading('pool_hijacked', { ...miner!, worker: 'thief.1' }, { ...configured, worker: '' }),
    ).toEqual({ holds: false, detail: '' });
    expect(minerReading('pool_hijacked', { ...evil, online: false }, configured)).toBeNull();
    expect(minerReading('pool_hijacked', { ...miner!, pool_address: '' }, configured)).toBeNull();
  });
});
