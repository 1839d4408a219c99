import { type CommandMessage, type TelemetryMessage, TelemetryMessageSchema } from '@fbox/contracts';
import { describe, expect, it } from 'vitest';
import { ManualClock } from './clock.js';
import { FboxModel, type FboxSpec, type ModelOptions } from './fbox.js';
import { FAULT_WEIGHTS, NO_READING } from './miner.js';
import { mulberry32 } from './random.js';

const make = (spec: Partial<FboxSpec> = {}, options: ModelOptions = {}) => {
  const clock = new ManualClock();
  const model = new FboxModel(
    { deviceId: 'BOX-T1', kind: 'immersion', tanks: 2, minersPerTank: 4, ...spec },
    { seed: 42, restartMs: 60_000, rampMs: 120_000, ...options, now: clock.now() },
  );
  let seq = 1;
  const report = (advanceMs = 30_000): TelemetryMessage => model.report(seq++, clock.advance(advanceMs));
  let id = 0;
  const run = (
    kind: CommandMessage['kind'],
    target: CommandMessage['target'],
    params: Record<string, unknown> = {},
  ) => model.execute({ id: `c${++id}`, kind, target, params }, clock.now());
  return { clock, model, report, run };
};

const sumPower = (m: TelemetryMessage) => m.miners.reduce((s, x) => s + x.power_w, 0);

describe('random', () => {
  it('mulberry32 is repeatable for a seed', () => {
    const a = mulberry32(9);
    const b = mulberry32(9);
    const xs = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  });
});

describe('FboxModel', () => {
  it('is deterministic for a seed, and the seed only changes the dynamics, not the identity', () => {
    const a = make({}, { faultRate: 0.05 });
    const b = make({}, { faultRate: 0.05 });
    const c = make({}, { seed: 43, faultRate: 0.05 });
    for (let i = 0; i < 20; i++) {
      const ra = a.report();
      expect(b.report()).toEqual(ra);
      const rc = c.report();
      expect(rc.miners.map((m) => m.sn)).toEqual(ra.miners.map((m) => m.sn));
    }
    expect(JSON.stringify(c.report())).not.toEqual(JSON.stringify(a.report()));
  });

  it.each(['immersion', 'air', 'hydro'] as const)('%s telemetry passes the contract schema', (kind) => {
    const { report } = make({ kind }, { faultRate: 0.1 });
    for (let i = 0; i < 50; i++) {
      const message = report();
      const parsed = TelemetryMessageSchema.safeParse(message);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    }
    const message = report();
    expect(message.miners).toHaveLength(8);
    if (kind === 'immersion') {
      expect(message.tanks).toHaveLength(2);
      expect(message.box.immersion?.status).toBe('on');
      expect(message.miners.map((m) => m.tank_no)).toEqual([1, 1, 1, 1, 2, 2, 2, 2]);
    } else {
      expect(message.tanks).toHaveLength(0);
      expect(message.miners.every((m) => m.tank_no === null)).toBe(true);
    }
    if (kind === 'hydro') {
      expect(message.box.flow_rate).toBeGreaterThan(0);
      expect(message.box.water_out_temp).toBeGreaterThan(message.box.water_in_temp!);
      expect(message.box.pumps).toHaveLength(2);
      expect(message.miners[0]!.model).toMatch(/Hydro|M63S/);
    }
  });

  it('gives realistic, unique miner identities inside the box range', () => {
    const { report, model } = make({ account: 'acme', boxNo: 3 });
    const message = report();
    expect(new Set(message.miners.map((m) => m.sn)).size).toBe(8);
    expect(message.miners[0]!.worker).toBe('acme.3x1');
    expect(message.miners[7]!.worker).toBe('acme.3x8');
    for (const m of message.miners) {
      expect(m.ip).toMatch(/^10\.\d+\.\d+\.\d+$/);
      expect(m.pool_address).toBe('stratum+tcp://btc.viabtc.io:3333');
      expect(m.pool).toBe('ViaBTC');
      expect(m.firmware.length).toBeGreaterThan(0);
    }
    expect(model.ipRange.startsWith(message.miners[0]!.ip)).toBe(true);
    const other = make({ deviceId: 'BOX-T2' }).report();
    expect(other.miners.some((m) => message.miners.some((n) => n.sn === m.sn))).toBe(false);
  });

  it('places miners inside the FBOX IP range when one is given', () => {
    const { report, model } = make({ ipRange: '10.0.3.1-10.0.3.254', miners: 300 });
    const ips = report().miners.map((m) => m.ip);
    expect(ips[0]).toBe('10.0.3.1');
    expect(ips[253]).toBe('10.0.3.254');
    expect(ips[254]).toBe('10.0.4.1'); // past a too-small range, never repeated
    expect(new Set(ips).size).toBe(300);
    expect(model.ipRange).toBe(`10.0.3.1-${ips[299]}`);
    // An unreadable range falls back to the derived one.
    expect(make({ ipRange: 'n/a' }).report().miners[0]!.ip).toMatch(/^10\.\d+\.\d+\.2$/);
  });

  it('reports hashrate near nominal with smooth ±2–3 % noise and a matching average', () => {
    const { report } = make({ models: ['Antminer S21'] });
    const series: number[] = [];
    for (let i = 0; i < 120; i++) series.push(report().miners[0]!.hashrate_realtime);
    for (const h of series) expect(Math.abs(h / 200 - 1)).toBeLessThan(0.08);
    const jumps = series.slice(1).map((h, i) => Math.abs(h - series[i]!) / 200);
    expect(Math.max(...jumps)).toBeLessThan(0.03);
    const last = report().miners[0]!;
    expect(Math.abs(last.hashrate_avg / 200 - 1)).toBeLessThan(0.03);
    expect(last.hashrate_theoretical).toBe(200);
    expect(Math.abs(last.power_w / 3500 - 1)).toBeLessThan(0.05);
  });

  it('mode low lowers hashrate and power; high restores them', () => {
    const { report, run } = make({ models: ['Whatsminer M50S'] });
    const before = report();
    const sn = before.miners[0]!.sn;
    expect(run('miner.mode', { sn }, { mode: 'low' })).toEqual({ ok: true });
    const after = report(300_000);
    const low = after.miners[0]!;
    const high = before.miners[0]!;
    expect(low.mode).toBe('low');
    expect(low.hashrate_theoretical).toBeCloseTo(126 * 0.7, 1);
    expect(low.hashrate_realtime).toBeLessThan(high.hashrate_realtime * 0.8);
    expect(low.power_w).toBeLessThan(high.power_w * 0.75);
    expect(after.miners[1]!.mode).toBe('high');
    expect(run('miner.mode', { sn }, { mode: 'turbo' })).toMatchObject({ ok: false });
    run('miner.mode', { sn }, { mode: 'high' });
    expect(report(300_000).miners[0]!.hashrate_realtime).toBeGreaterThan(high.hashrate_realtime * 0.9);
  });

  it('restart: offline for the configured time, then back with uptime 0 and a ramp', () => {
    const { report, run, clock } = make({}, { restartMs: 60_000, rampMs: 120_000 });
    const sn = report().miners[2]!.sn;
    expect(run('miner.restart', { sn })).toEqual({ ok: true });
    const down = report(30_000).miners[2]!;
    expect(down).toMatchObject({ online: false, hashrate_realtime: 0, power_w: 0, uptime_s: 0 });
    const up = report(40_000).miners[2]!; // 70 s after the restart
    expect(up.online).toBe(true);
    expect(up.uptime_s).toBeGreaterThanOrEqual(9);
    expect(up.uptime_s).toBeLessThanOrEqual(11);
    expect(up.hashrate_realtime).toBeGreaterThan(0);
    expect(up.hashrate_realtime).toBeLessThan(up.hashrate_theoretical * 0.5);
    clock.advance(0);
    const full = report(300_000).miners[2]!;
    expect(full.hashrate_realtime).toBeGreaterThan(full.hashrate_theoretical * 0.9);
    expect(run('miner.restart', { sn: 'NOPE' })).toEqual({
      ok: false,
      error: 'unknown miner sn NOPE on BOX-T1',
    });
  });

  it('degrade holds a miner low (through a restart) until cleared', () => {
    const { model, report, run } = make({ tanks: 1, minersPerTank: 2 });
    const [miner, other] = model.miners;
    const normal = report().miners[0]!.hashrate_realtime;
    miner!.degrade(0.1);
    let m = report().miners;
    expect(m[0]!.hashrate_realtime).toBeLessThan(normal * 0.2);
    expect(m[0]!.fault).toBe('chain');
    expect(m[1]!.hashrate_realtime).toBeGreaterThan(normal * 0.8);
    expect(run('miner.restart', { sn: miner!.sn })).toEqual({ ok: true });
    for (let i = 0; i < 10; i++) report();
    expect(report().miners[0]!.hashrate_realtime).toBeLessThan(normal * 0.2);
    miner!.degrade(null);
    for (let i = 0; i < 10; i++) report();
    m = report().miners;
    expect(m[0]!.hashrate_realtime).toBeGreaterThan(normal * 0.8);
    expect(other!.fault).toBeNull();
  });

  it('PDU outlet off takes its miner offline until switched on again', () => {
    const { report, run } = make();
    const miner = report().miners[5]!;
    expect(run('pdu.outlet', { outlet: miner.outlet! }, { status: 'off' })).toEqual({ ok: true });
    for (let i = 0; i < 5; i++) {
      const off = report(60_000).miners[5]!;
      expect(off).toMatchObject({ online: false, hashrate_realtime: 0, hashrate_avg: 0, power_w: 0 });
    }
    expect(run('miner.restart', { sn: miner.sn })).toMatchObject({ ok: false });
    expect(run('pdu.outlet', { outlet: miner.outlet! }, { status: 'on' })).toEqual({ ok: true });
    expect(report(30_000).miners[5]!.online).toBe(false); // still booting
    const back = report(60_000).miners[5]!;
    expect(back.online).toBe(true);
    expect(back.uptime_s).toBeLessThan(60);
    expect(run('pdu.outlet', { outlet: 999 }, { status: 'off' })).toMatchObject({ ok: false });
    expect(run('pdu.outlet', {}, { status: 'off' })).toMatchObject({ ok: false });
  });

  it('meters accumulate power × time and reset to 0', () => {
    const { report, run } = make();
    const start = report();
    let expected1 = start.box.meters[0]!.energy_kwh;
    let last = start;
    for (let i = 0; i < 60; i++) {
      const next = report(60_000);
      expected1 += ((last.box.meters[0]!.power_kw + next.box.meters[0]!.power_kw) / 2) * (60 / 3600);
      last = next;
    }
    const gained = last.box.meters[0]!.energy_kwh - start.box.meters[0]!.energy_kwh;
    // One hour at ~27 kW of miners.
    expect(gained).toBeGreaterThan(last.box.meters[0]!.power_kw * 0.95);
    expect(gained).toBeLessThan(last.box.meters[0]!.power_kw * 1.05);
    expect(last.box.meters[0]!.energy_kwh).toBeCloseTo(expected1, 0);
    expect(last.box.power_kw).toBeCloseTo(last.box.meters[0]!.power_kw + last.box.meters[1]!.power_kw, 1);
    expect(last.box.power_kw * 1000).toBeGreaterThan(sumPower(last));
    expect(run('meter.reset', { meter_no: 1 })).toEqual({ ok: true });
    const reset = report(0);
    expect(reset.box.meters[0]!.energy_kwh).toBe(0);
    expect(reset.box.meters[1]!.energy_kwh).toBeGreaterThan(0);
    const later = report(3600_000).box.meters[0]!;
    expect(later.energy_kwh).toBeGreaterThan(later.power_kw * 0.9);
    expect(later.energy_kwh).toBeLessThan(later.power_kw * 1.1);
  });

  it('temperatures rise with load: chips follow power, oil follows the heat', () => {
    const light = make({ minersPerTank: 4 });
    const lowAll = light.report().miners.map((m) => m.sn);
    for (const sn of lowAll) light.run('miner.mode', { sn }, { mode: 'low' });
    const heavy = make({ minersPerTank: 4 });
    for (const sn of lowAll) heavy.run('miner.overclock', { sn }, { enabled: true, min: 90, max: 110 });
    const l = light.report(3 * 3600_000);
    const h = heavy.report(3 * 3600_000);
    expect(sumPower(h)).toBeGreaterThan(sumPower(l) * 1.5);
    const avgChip = (m: TelemetryMessage) =>
      m.miners.reduce((s, x) => s + x.chip_avg_temp, 0) / m.miners.length;
    expect(avgChip(h)).toBeGreaterThan(avgChip(l) + 5);
    const rise = (m: TelemetryMessage) => m.tanks[0]!.oil_out_temp - m.tanks[0]!.oil_in_temp;
    expect(rise(h)).toBeGreaterThan(rise(l));
    for (const m of h.miners) expect(m.chip_max_temp).toBeGreaterThan(m.chip_avg_temp);
    // Pump off: the oil heats up and the chips with it.
    heavy.run('tank.controller_switch', { tank_no: 1 }, { device: 'pump', no: 1, status: 'off' });
    const hot = heavy.report(600_000);
    expect(hot.tanks[0]!.control_mode).toBe('manual');
    expect(hot.tanks[0]!.oil_pump_efficiency).toBeLessThan(1);
    expect(hot.tanks[0]!.oil_out_temp).toBeGreaterThan(h.tanks[0]!.oil_out_temp + 10);
    expect(hot.miners[0]!.chip_avg_temp).toBeGreaterThan(h.miners[0]!.chip_avg_temp + 10);
  });

  it('-999 faults appear at the configured rate and never break a report', () => {
    const rate = 0.05;
    const { report } = make({ minersPerTank: 10 }, { faultRate: rate });
    let readings = 0;
    let missing = 0;
    let chainFaults = 0;
    const reports = 400;
    for (let i = 0; i < reports; i++) {
      const message = report();
      expect(TelemetryMessageSchema.safeParse(message).success).toBe(true);
      for (const m of message.miners) {
        readings++;
        if (m.chip_avg_temp === NO_READING || m.chip_max_temp === NO_READING) missing++;
        if (m.fault === 'chain') chainFaults++;
      }
    }
    const sensorShare = FAULT_WEIGHTS.find(([k]) => k === 'sensor')![1];
    const expected = readings * rate * sensorShare; // 8000 × 0.05 × 0.4 = 160
    expect(missing).toBeGreaterThan(expected * 0.7);
    expect(missing).toBeLessThan(expected * 1.3);
    expect(chainFaults).toBeGreaterThan(0);
    const quiet = make({}, { faultRate: 0 });
    for (let i = 0; i < 100; i++) {
      const message = quiet.report();
      expect(JSON.stringify(message)).not.toContain('-999');
      expect(message.miners.every((m) => m.fault === '' && m.online)).toBe(true);
    }
  });

  it('voltages stay mostly inside 342–418 V and humidity/temperature are plausible', () => {
    const { report } = make();
    let inside = 0;
    let total = 0;
    for (let i = 0; i < 500; i++) {
      const { box } = report(60_000);
      for (const v of box.voltage) {
        total++;
        if (v >= 342 && v <= 418) inside++;
      }
      expect(box.humidity).toBeGreaterThanOrEqual(10);
      expect(box.temperature).toBeGreaterThan(5);
      expect(box.temperature).toBeLessThan(50);
    }
    expect(inside / total).toBeGreaterThan(0.98);
  });

  it('executes every miner, tank, box command and refuses bad ones', () => {
    const { report, run, model } = make();
    const sn = report().miners[0]!.sn;
    expect(
      run('miner.pool', { sn }, { pool_address: 'stratum+tcp://btc.f2pool.com:1314', worker: 'acme.9x1' }),
    ).toEqual({
      ok: true,
    });
    let m = report().miners[0]!;
    expect(m).toMatchObject({
      pool_address: 'stratum+tcp://btc.f2pool.com:1314',
      pool: 'F2Pool',
      worker: 'acme.9x1',
    });
    expect(run('miner.pool', { sn }, { pool_address: 'http://nope' })).toMatchObject({ ok: false });
    expect(run('miner.resave_account', { sn }, {})).toEqual({ ok: true });
    expect(report().miners[0]!.worker).toBe('acme.9x1');
    expect(run('miner.resave_account', { sn }, { worker: 'acme.9x01' })).toEqual({ ok: true });
    m = report().miners[0]!;
    expect(m.worker).toBe('acme.9x01');
    expect(m.pool).toBe('F2Pool');
    const before = report().miners[0]!;
    expect(run('miner.overclock', { sn }, { enabled: true, min: 100, max: 110 })).toEqual({ ok: true });
    const oc = report(600_000).miners[0]!;
    expect(oc.hashrate_theoretical).toBeCloseTo(before.hashrate_theoretical * 1.08, 1);
    expect(oc.power_w).toBeGreaterThan(before.power_w * 1.05);
    expect(run('miner.overclock', { sn }, { enabled: 'yes' })).toMatchObject({ ok: false });
    expect(run('miner.overclock', { sn }, { enabled: true, min: 5, max: 1 })).toMatchObject({ ok: false });

    expect(run('tank.controller_switch', { tank_no: 2 }, { device: 'fan', no: 3, status: 'off' })).toEqual({
      ok: true,
    });
    let tank = report(120_000).tanks[1]!;
    expect(tank.control_mode).toBe('manual');
    expect(tank.fans[2]).toBe(0);
    expect(tank.fans[0]).toBeGreaterThan(0);
    expect(
      run('tank.controller_switch', { tank_no: 2 }, { device: 'fan', no: 1, status: 'on', speed: 100 }),
    ).toEqual({
      ok: true,
    });
    tank = report(120_000).tanks[1]!;
    expect(tank.fans[0]).toBe(5000);
    expect(run('tank.controller_switch', { tank_no: 2 }, { control_mode: 'auto' })).toEqual({ ok: true });
    expect(report().tanks[1]!.control_mode).toBe('auto');
    expect(
      run('tank.controller_switch', { tank_no: 2 }, { device: 'fan', no: 9, status: 'on' }),
    ).toMatchObject({
      ok: false,
    });
    expect(run('tank.controller_switch', { tank_no: 7 }, { control_mode: 'auto' })).toMatchObject({
      ok: false,
    });
    expect(run('tank.controller_switch', { tank_no: 1 }, {})).toMatchObject({ ok: false });

    const normal = report().tanks[0]!;
    expect(run('tank.oil_setting', { tank_no: 1 }, { energy_saving: true })).toEqual({ ok: true });
    const saving = report(3 * 3600_000).tanks[0]!;
    expect(saving.energy_saving).toBe(true);
    expect(saving.oil_pump_efficiency).toBeLessThan(normal.oil_pump_efficiency);
    expect(saving.oil_in_temp).toBeGreaterThan(normal.oil_in_temp + 2);
    expect(run('tank.oil_setting', { tank_no: 1 }, { energy_saving: 'on' })).toMatchObject({ ok: false });

    expect(run('fbox.config', {}, { interval_s: 60, voltage_max: 418 })).toEqual({
      ok: true,
      intervalMs: 60_000,
    });
    expect(model.config).toMatchObject({ interval_s: 60, voltage_max: 418 });
    expect(run('fbox.config', {}, { voltage_min: 342 })).toEqual({ ok: true });
    expect(run('fbox.config', {}, { interval_s: 0 })).toMatchObject({ ok: false });
    expect(run('meter.reset', { meter_no: 2 })).toEqual({ ok: true });
    expect(run('meter.reset', {})).toMatchObject({ ok: false });
  });

  it('hydro boxes switch their loop pumps; air boxes refuse tank commands', () => {
    const hydro = make({ kind: 'hydro' });
    const before = hydro.report();
    expect(hydro.run('tank.controller_switch', {}, { device: 'pump', no: 2, status: 'off' })).toEqual({
      ok: true,
    });
    const after = hydro.report(300_000);
    expect(after.box.pumps![1]!.status).toBe('off');
    expect(after.box.flow_rate!).toBeLessThan(before.box.flow_rate! * 0.7);
    expect(after.box.water_out_temp! - after.box.water_in_temp!).toBeGreaterThan(
      before.box.water_out_temp! - before.box.water_in_temp!,
    );
    const air = make({ kind: 'air' });
    expect(air.run('tank.oil_setting', { tank_no: 1 }, { energy_saving: true })).toMatchObject({
      ok: false,
      error: expect.stringContaining('no tanks'),
    });
  });
});
