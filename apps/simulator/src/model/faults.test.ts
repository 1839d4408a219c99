import { defaultAlertRules, type TelemetryMessage } from '@fbox/contracts';
import { describe, expect, it } from 'vitest';
import type { Gateway } from '../gateway.js';
import { silentLogger } from '../logger.js';
import { FaultScenarios } from '../scenarios.js';
import { ManualClock } from './clock.js';
import {
  clearFaults,
  FAULT_DEFAULT_DURATION_MS,
  FAULT_NAMES,
  FaultError,
  type FaultName,
  HIJACK_POOL_ADDRESS,
  injectFault,
} from './faults.js';
import { FboxModel, type FboxSpec } from './fbox.js';

const s = 1000;

const make = (spec: Partial<FboxSpec> = {}) => {
  const clock = new ManualClock();
  const model = new FboxModel(
    { deviceId: 'BOX-F1', kind: 'immersion', tanks: 2, minersPerTank: 4, ...spec },
    { seed: 5, now: clock.now() },
  );
  let seq = 1;
  const report = (advanceMs = 10 * s): TelemetryMessage => model.report(seq++, clock.advance(advanceMs));
  /** Reports every 10 s for `ms`; returns the last. */
  const run = (ms: number): TelemetryMessage => {
    let last = report(0);
    for (let t = 0; t < ms; t += 10 * s) last = report();
    return last;
  };
  return { clock, model, report, run };
};

const rule = (metric: string) => defaultAlertRules.find((r) => r.metric === metric)!;

describe('injected faults', () => {
  it('every fault outlasts its default rule’s sustain time', () => {
    const sustain: Record<FaultName, string> = {
      voltage_sag: 'fbox_voltage_out_of_range',
      tank_hot: 'oil_out_temp_high',
      fan_fail: 'fan_fault',
      miner_fault: 'miner_fault',
      flow_low: 'flow_low',
      pump_fault: 'pump_fault',
      meter_missing: 'meter_missing',
      pool_hijack: 'pool_hijacked',
      hashrate_drop: 'hashrate_low_pct',
    };
    for (const name of FAULT_NAMES)
      expect(FAULT_DEFAULT_DURATION_MS[name]).toBeGreaterThan(
        rule(sustain[name]).sustain_seconds * 1000 + 60 * s,
      );
  });

  it('tank_hot heats the oil outlet past the 55 °C rule, and it cools back after the fault', () => {
    const { model, clock, run } = make();
    expect(run(60 * s).tanks[1]!.oil_out_temp).toBeLessThan(50);
    const fault = injectFault(model, { name: 'tank_hot', tank: 2 }, clock.now());
    expect(fault).toEqual({
      name: 'tank_hot',
      deviceId: 'BOX-F1',
      target: 'tank 2',
      since: clock.now(),
      until: clock.now() + FAULT_DEFAULT_DURATION_MS.tank_hot,
    });
    const during = run(180 * s);
    expect(during.tanks[1]!.oil_out_temp).toBeGreaterThan(rule('oil_out_temp_high').threshold!);
    expect(during.tanks[0]!.oil_out_temp).toBeLessThan(50);
    // Default 6 min: it expires by itself, and the oil cools below the threshold minus its margin.
    const after = run(FAULT_DEFAULT_DURATION_MS.tank_hot + 120 * s);
    expect(after.tanks[1]!.oil_out_temp).toBeLessThan(53);
    expect(model.injected).toEqual([]);
  });

  it('fan_fail stops one fan of a tank in auto mode until cleared', () => {
    const { model, clock, report } = make();
    injectFault(model, { name: 'fan_fail', tank: 1, fan: 3 }, clock.now());
    const during = report();
    expect(during.tanks[0]!.control_mode).toBe('auto');
    expect(during.tanks[0]!.fans[2]).toBe(0);
    expect(during.tanks[0]!.fans.filter((f) => f > 0)).toHaveLength(3);
    expect(clearFaults(model, 'fan_fail')).toMatchObject([{ name: 'fan_fail', target: 'tank 1 fan 3' }]);
    expect(report().tanks[0]!.fans[2]).toBeGreaterThan(0);
  });

  it('pump_fault stops a hydro loop pump that stays switched on, or an immersion tank’s oil pump', () => {
    const hydro = make({ kind: 'hydro', tanks: 2, minersPerTank: 6 });
    injectFault(hydro.model, { name: 'pump_fault', pump: 2 }, hydro.clock.now());
    expect(hydro.report().box.pumps).toEqual([
      { no: 1, status: 'on', speed: expect.any(Number) },
      { no: 2, status: 'on', speed: 0 },
    ]);
    clearFaults(hydro.model);
    expect(hydro.report().box.pumps![1]!.speed).toBeGreaterThan(0);
    const tank = make();
    injectFault(tank.model, { name: 'pump_fault', tank: 2 }, tank.clock.now());
    expect(tank.report().tanks[1]!.oil_pump_efficiency).toBe(0);
  });

  it('flow_low closes the hydro valve: flow far below 2 m³/h, then back', () => {
    const { model, clock, report, run } = make({ kind: 'hydro', tanks: 2, minersPerTank: 6 });
    const normal = report().box.flow_rate!;
    injectFault(model, { name: 'flow_low', durationMs: 60 * s }, clock.now());
    const during = report().box;
    expect(during.flow_rate!).toBeLessThan(rule('flow_low').threshold!);
    expect(during.valve_opening).toBe(2);
    expect(run(90 * s).box.flow_rate!).toBeCloseTo(normal, 0);
  });

  it('voltage_sag drops one phase below 342 V; meter_missing leaves a meter out', () => {
    const { model, clock, report } = make();
    injectFault(model, { name: 'voltage_sag', phase: 3 }, clock.now());
    injectFault(model, { name: 'meter_missing', meter: 1 }, clock.now());
    const during = report().box;
    expect(during.voltage[2]).toBeLessThan(342);
    expect(Math.min(during.voltage[0], during.voltage[1])).toBeGreaterThan(342);
    expect(during.meters.map((m) => m.no)).toEqual([2]);
    clearFaults(model);
    const after = report().box;
    expect(after.voltage[2]).toBeGreaterThan(347);
    expect(after.meters.map((m) => m.no)).toEqual([1, 2]);
  });

  it('hashrate_drop halves a miner without a fault code; miner_fault reports one', () => {
    const { model, clock, report } = make();
    const [a, b] = model.miners;
    injectFault(model, { name: 'hashrate_drop', miner: a!.sn }, clock.now());
    injectFault(model, { name: 'miner_fault', miner: b!.sn }, clock.now());
    const during = report();
    const one = during.miners.find((m) => m.sn === a!.sn)!;
    expect(one.hashrate_realtime / one.hashrate_theoretical).toBeLessThan(0.8);
    expect(one.fault).toBe('');
    expect(during.miners.find((m) => m.sn === b!.sn)!.fault).toBe('fan');
    clearFaults(model);
    const after = report().miners.find((m) => m.sn === a!.sn)!;
    expect(after.hashrate_realtime / after.hashrate_theoretical).toBeGreaterThan(0.9);
  });

  it('pool_hijack points a miner at another pool and worker, and restores it unless the cloud re-set it', () => {
    const { model, clock, report } = make();
    const [a, b] = model.miners;
    const original = { pool_address: a!.poolAddress, worker: a!.worker };
    injectFault(model, { name: 'pool_hijack', miner: a!.sn }, clock.now());
    injectFault(model, { name: 'pool_hijack', miner: b!.sn }, clock.now());
    const hijacked = report().miners.find((m) => m.sn === a!.sn)!;
    expect(hijacked.pool_address).toBe(HIJACK_POOL_ADDRESS);
    expect(hijacked.worker).not.toBe(original.worker);
    model.execute(
      {
        id: 'c1',
        kind: 'miner.pool',
        target: { sn: b!.sn },
        params: { pool_address: 'stratum+tcp://p.example:1' },
      },
      clock.now(),
    );
    clearFaults(model, 'pool_hijack');
    const after = report().miners;
    expect(after.find((m) => m.sn === a!.sn)).toMatchObject(original);
    expect(after.find((m) => m.sn === b!.sn)!.pool_address).toBe('stratum+tcp://p.example:1');
  });

  it('refuses a fault that does not fit the box', () => {
    const air = make({ kind: 'air' });
    expect(() => injectFault(air.model, { name: 'tank_hot' }, 0)).toThrow(FaultError);
    expect(() => injectFault(air.model, { name: 'flow_low' }, 0)).toThrow(/no water loop/);
    expect(() => injectFault(air.model, { name: 'miner_fault', miner: 'nope' }, 0)).toThrow(/no miner nope/);
    expect(() => injectFault(air.model, { name: 'voltage_sag', phase: 4 }, 0)).toThrow(/phase must be 1–3/);
  });
});

describe('fault scenarios', () => {
  const boxes = () =>
    (['hydro', 'immersion', 'air'] as const).map((kind, i) => {
      const model = new FboxModel(
        { deviceId: `SC${i}`, kind, tanks: 2, minersPerTank: 3 },
        { seed: 1, now: 0 },
      );
      return { deviceId: model.deviceId, model } as unknown as Gateway;
    });
  const scenarios = (seed: number) => {
    const gateways = boxes();
    return new FaultScenarios({
      seed,
      gateways: () => gateways,
      inject: ({ fbox, ...request }) =>
        injectFault(gateways.find((g) => g.deviceId === fbox)!.model, request, 0),
      now: () => 0,
      log: silentLogger,
    });
  };

  it('injects every fault in turn, each into a box it fits, the same for the same seed', () => {
    const a = scenarios(7);
    const first = FAULT_NAMES.map(() => a.next());
    expect(first.map((f) => f?.name)).toEqual([...FAULT_NAMES]);
    expect(first.find((f) => f?.name === 'flow_low')?.deviceId).toBe('SC0');
    expect(first.find((f) => f?.name === 'pump_fault')?.target).toMatch(/^pump /);
    const b = scenarios(7);
    expect(FAULT_NAMES.map(() => b.next())).toEqual(first);
  });
});
