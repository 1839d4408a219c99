import {
  type BoxTelemetry,
  type CommandMessage,
  PROTOCOL_VERSION,
  type TelemetryMessage,
} from '@fbox/contracts';
import { findModel, type MinerModelSpec, modelsFor, POOLS, poolName } from './catalog.js';
import { executeCommand } from './commands.js';
import { expireFaults, type InjectedFault } from './faults.js';
import { allocateIps, parseIpRange } from './ip.js';
import { type BoxKind, Miner, type MinerTimings, NO_READING } from './miner.js';
import { clamp, hash32, Rng, relax, round, SmoothNoise } from './random.js';
import { FAN_FULL_SPEED, Tank } from './tank.js';

/** One miner position, when a box's miners are listed one by one. All fields optional. */
export interface MinerPlacement {
  /** Model name from the catalog, e.g. `Antminer S21` or `S21`. */
  model?: string;
  sn?: string;
  /** Tank no (immersion boxes). */
  tank?: number;
  worker?: string;
  ip?: string;
  poolAddress?: string;
}

/** What one FBOX looks like. Identity (SNs, IPs, models) depends only on `deviceId`, not on the seed. */
export interface FboxSpec {
  deviceId: string;
  /** `immersion` (default): miners in oil tanks; `air`: air-cooled container; `hydro`: water loop. */
  kind?: BoxKind;
  /** Box number used in worker names (`<account>.<boxNo>x<index>`), default 1. */
  boxNo?: number;
  /** Immersion boxes: number of tanks (default 2). Air and hydro boxes have no tanks. */
  tanks?: number;
  /** Miners per tank (default 10); for air/hydro boxes `tanks × minersPerTank` is the miner count. */
  minersPerTank?: number;
  /** Total miner count, or the miners one by one; overrides `minersPerTank`. */
  miners?: number | MinerPlacement[];
  /** Restrict the models picked, by name. */
  models?: string[];
  /** Pool account of the workers, default `fboxdemo`. */
  account?: string;
  /** Stratum address of the pool, default ViaBTC. */
  poolAddress?: string;
  /**
   * The FBOX's IP range (`10.0.1.1-10.0.1.254`, `10.0.1.1-254`, `10.0.1.0/24`): miners get addresses
   * from its start. Unset or unreadable: a 10.x.y.0 range derived from the device id.
   */
  ipRange?: string;
  /** Fastest reporting period the gateway supports, seconds (default 1): `fbox.config` asking for less is refused. */
  minReportingIntervalS?: number;
  /**
   * The power meters' registers to start from, kWh (meter 1, meter 2): a restarted gateway keeps
   * counting where its meters stood. Unset: values derived from the device id.
   */
  meterEnergyKwh?: [number | undefined, number | undefined];
}

export interface ModelOptions {
  seed?: number;
  /** Probability per miner (and per tank, per box) and per report that a fault event happens, 0–1. */
  faultRate?: number;
  /** Reboot time of a miner, ms (default 60 000). */
  restartMs?: number;
  /** Boot-to-full-hashrate time, ms (default 120 000). */
  rampMs?: number;
  /** Start time, ms since the epoch (default: now). */
  now?: number;
}

export interface MeterState {
  no: 1 | 2;
  energyKwh: number;
  powerKw: number;
}

export interface HydroLoop {
  /** `tripped`: an injected drive fault (`pump_fault`): stopped while switched on. */
  pumps: Array<{ no: number; on: boolean; manualPct: number; frac: number; tripped?: boolean }>;
  controlMode: 'auto' | 'manual';
  waterIn: number;
  waterOut: number;
  valve: number;
  /** An injected stuck valve (`flow_low`), % open; null: the valve follows its controller. */
  valveStuck?: number | null;
}

/** Result of a command on the model. `intervalMs` is set when `fbox.config` changed the reporting interval. */
export interface CommandResult {
  ok: boolean;
  error?: string;
  intervalMs?: number;
  /** `miner.logs`: the log, sent in parts before the ack. */
  log?: string;
}

const MAX_STEP_S = 5;
const MAX_STEPS = 2000;

/** The whole simulated FBOX: box sensors, tanks, miners, PDU and meters, advanced by `advance(now)`. */
export class FboxModel {
  readonly deviceId: string;
  readonly kind: BoxKind;
  readonly tanks: Tank[];
  readonly miners: Miner[];
  readonly meters: [MeterState, MeterState];
  readonly hydro: HydroLoop | null;
  /** Settings stored by `fbox.config`. */
  readonly config: Record<string, unknown> = {};
  /** Fastest reporting period the gateway accepts, ms. */
  readonly minIntervalMs: number;
  /** IP range of the box's miners, `10.a.b.c-10.a.d.e`. */
  readonly ipRange: string;
  readonly publicIp: string;
  faultRate: number;
  readonly timings: MinerTimings;
  /** Faults injected by name (`injectFault`), with what undoes each. */
  readonly injected: InjectedFault[] = [];
  /** Injected voltage sag per phase, V (`voltage_sag`). */
  readonly voltageSag: [number, number, number] = [0, 0, 0];
  /** Meters left out of the reports (`meter_missing`). */
  readonly missingMeters = new Set<1 | 2>();
  private lastNow: number;
  private readonly rng: Rng;
  private readonly ambientBase: number;
  private readonly ambientNoise: SmoothNoise;
  private readonly humidityBase: number;
  private readonly humidityNoise: SmoothNoise;
  private readonly voltageBase: [number, number, number];
  private readonly voltageNoise: [SmoothNoise, SmoothNoise, SmoothNoise];
  private readonly valveNoise: SmoothNoise;
  private containerTemp: number;
  private readonly designHeatKw: number;
  private boxGlitch: 'temperature' | 'humidity' | null = null;

  constructor(spec: FboxSpec, options: ModelOptions = {}) {
    const seed = options.seed ?? 1;
    this.deviceId = spec.deviceId;
    this.kind = spec.kind ?? 'immersion';
    this.minIntervalMs = Math.max(1, spec.minReportingIntervalS ?? 1) * 1000;
    this.faultRate = options.faultRate ?? 0;
    this.timings = { restartMs: options.restartMs ?? 60_000, rampMs: options.rampMs ?? 120_000 };
    this.lastNow = options.now ?? Date.now();
    this.rng = Rng.derive(seed, spec.deviceId, 'box');
    const id = Rng.derive(0, 'identity', spec.deviceId);
    const h = hash32(spec.deviceId);

    this.ambientBase = id.range(18, 30);
    this.ambientNoise = new SmoothNoise(this.rng, 0.8, 1800);
    this.humidityBase = id.range(38, 60);
    this.humidityNoise = new SmoothNoise(this.rng, 4, 3600);
    const vBase = id.range(384, 394);
    this.voltageBase = [vBase + id.range(-3, 3), vBase + id.range(-3, 3), vBase + id.range(-3, 3)];
    this.voltageNoise = [0, 1, 2].map(() => new SmoothNoise(this.rng, 5, 120)) as [
      SmoothNoise,
      SmoothNoise,
      SmoothNoise,
    ];
    this.valveNoise = new SmoothNoise(this.rng, 1.5, 600);
    this.publicIp = `203.0.113.${(h % 250) + 2}`;

    // Layout.
    const tankCount = this.kind === 'immersion' ? clamp(spec.tanks ?? 2, 1, 64) : 0;
    const perTank = spec.minersPerTank ?? 10;
    const placements: MinerPlacement[] = Array.isArray(spec.miners)
      ? spec.miners
      : Array.from(
          { length: spec.miners ?? (this.kind === 'immersion' ? tankCount : (spec.tanks ?? 2)) * perTank },
          () => ({}),
        );
    if (placements.length > 5000) throw new Error(`${spec.deviceId}: at most 5000 miners per FBOX`);
    const candidates = spec.models?.length
      ? spec.models.map((name) => {
          const found = findModel(name);
          if (!found) throw new Error(`unknown miner model "${name}"`);
          return found;
        })
      : modelsFor(this.kind);
    const account = spec.account ?? 'fboxdemo';
    const boxNo = spec.boxNo ?? 1;
    const poolAddress = spec.poolAddress ?? POOLS[0]!.address;
    const given = spec.ipRange ? parseIpRange(spec.ipRange) : null;
    // Derived range: 10.a.b.2 on, room for 5000 miners.
    const firstIp = given?.first ?? (10 * 256 + (h % 250) + 1) * 65536 + ((h >>> 8) % 12) * 20 * 256 + 2;
    const ips = allocateIps(firstIp, Math.max(placements.length, 1));
    this.ipRange = `${ips[0]}-${ips[ips.length - 1]}`;
    const boxTag = (h % 36 ** 5).toString(36).toUpperCase().padStart(5, '0');

    // A tank (or a group of 10 air/hydro positions) holds one model, as on real sites.
    const groupModel = new Map<number, MinerModelSpec>();
    const modelOfGroup = (group: number): MinerModelSpec => {
      let m = groupModel.get(group);
      if (!m) {
        m = Rng.derive(0, 'identity', spec.deviceId, 'group', group).pick(candidates);
        groupModel.set(group, m);
      }
      return m;
    };

    const ambient = this.ambient(this.lastNow);
    this.containerTemp = ambient + 4;
    const tankOf = (i: number, p: MinerPlacement): number | null => {
      if (tankCount === 0) return null;
      if (p.tank !== undefined) {
        if (!Number.isInteger(p.tank) || p.tank < 1 || p.tank > tankCount)
          throw new Error(`${spec.deviceId}: miner ${i + 1} is in tank ${p.tank}, the box has ${tankCount}`);
        return p.tank;
      }
      return Math.min(tankCount, Math.floor((i * tankCount) / placements.length) + 1);
    };
    const layout = placements.map((p, i) => {
      const tankNo = tankOf(i, p);
      const model = p.model
        ? (findModel(p.model) ??
          (() => {
            throw new Error(`unknown miner model "${p.model}"`);
          })())
        : modelOfGroup(tankNo ?? Math.floor(i / 10));
      return { p, i, tankNo, model };
    });
    this.designHeatKw = layout.reduce((s, l) => s + l.model.powerW / 1000, 0);
    this.tanks = Array.from({ length: tankCount }, (_, t) => {
      const heat = layout.filter((l) => l.tankNo === t + 1).reduce((s, l) => s + l.model.powerW / 1000, 0);
      return new Tank(t + 1, heat, Rng.derive(seed, spec.deviceId, 'tank', t + 1), ambient);
    });
    this.hydro =
      this.kind === 'hydro'
        ? {
            pumps: [1, 2].map((no) => ({ no, on: true, manualPct: 90, frac: 0.9 })),
            controlMode: 'auto',
            waterIn: ambient + 10,
            waterOut: ambient + 18,
            valve: 80,
          }
        : null;
    const seen = new Set<string>();
    this.miners = layout.map(({ p, i, tankNo, model }) => {
      const mid = Rng.derive(0, 'identity', spec.deviceId, 'miner', i);
      const sn = p.sn ?? `${model.snPrefix}${boxTag}${String(i + 1).padStart(4, '0')}`;
      if (seen.has(sn)) throw new Error(`${spec.deviceId}: duplicate miner SN ${sn}`);
      seen.add(sn);
      const address = p.poolAddress ?? poolAddress;
      const miner = new Miner(
        model,
        {
          sn,
          ip: p.ip ?? ips[i]!,
          worker: p.worker ?? `${account}.${boxNo}x${i + 1}`,
          poolAddress: address,
          pool: poolName(address),
          firmware: mid.pick(model.firmware),
          tankNo,
          outlet: i + 1,
        },
        this.kind,
        Rng.derive(seed, spec.deviceId, 'miner', i),
        this.timings,
        0,
      );
      return miner;
    });
    // Settle into a plausible steady state before the first report.
    for (const m of this.miners) m.chipAvgTemp = m.chipMaxTemp = this.coolantFor(m.tankNo) + 25;
    this.settle(1800);
    const [start1, start2] = [round(id.range(1000, 90_000), 1), round(id.range(100, 9_000), 1)];
    this.meters = [
      { no: 1, energyKwh: spec.meterEnergyKwh?.[0] ?? start1, powerKw: 0 },
      { no: 2, energyKwh: spec.meterEnergyKwh?.[1] ?? start2, powerKw: 0 },
    ];
    this.updateMeterPower();
  }

  /** Outside temperature: base + day cycle (UTC) + slow drift, °C. */
  ambient(now: number): number {
    const hours = (now / 3_600_000) % 24;
    return this.ambientBase + 4 * Math.sin((2 * Math.PI * (hours - 9)) / 24) + this.ambientNoise.current;
  }

  private coolantFor(tankNo: number | null): number {
    if (tankNo !== null) return this.tanks[tankNo - 1]!.coolantTemp;
    if (this.hydro) return this.hydro.waterOut;
    return this.containerTemp;
  }

  miner(sn: string): Miner | undefined {
    return this.miners.find((m) => m.sn === sn);
  }

  tank(no: number): Tank | undefined {
    return this.tanks[no - 1];
  }

  minersPowerKw(): number {
    return this.miners.reduce((s, m) => s + m.powerW, 0) / 1000;
  }

  /** Fans, pumps and auxiliaries, kW. */
  coolingPowerKw(): number {
    const aux = 0.3;
    if (this.kind === 'immersion') return this.tanks.reduce((s, t) => s + t.coolingPowerKw(), aux);
    if (this.hydro) {
      const rated = Math.max(0.5, this.designHeatKw * 0.015);
      const drycooler =
        this.designHeatKw * 0.02 * (0.3 + 0.7 * (this.minersPowerKw() / Math.max(this.designHeatKw, 1)));
      return this.hydro.pumps.reduce((s, p) => s + rated * p.frac ** 3, aux + drycooler);
    }
    return aux + this.minersPowerKw() * 0.04;
  }

  private updateMeterPower(): void {
    this.meters[0].powerKw = this.minersPowerKw();
    this.meters[1].powerKw = this.coolingPowerKw();
  }

  /** Advance the physics to `now` (ms). Time never runs backwards; a step back is ignored. */
  advance(now: number): void {
    const total = (now - this.lastNow) / 1000;
    if (!(total > 0)) return;
    const steps = Math.min(MAX_STEPS, Math.ceil(total / MAX_STEP_S));
    const dt = total / steps;
    for (let k = 1; k <= steps; k++) {
      const t = this.lastNow + k * dt * 1000;
      this.stepOnce(k === steps ? now : Math.round(t), dt);
    }
    this.lastNow = now;
  }

  private settle(seconds: number): void {
    const steps = Math.ceil(seconds / 10);
    for (let k = 0; k < steps; k++) this.stepOnce(this.lastNow, 10, true);
  }

  private stepOnce(now: number, dtS: number, settling = false): void {
    this.ambientNoise.step(dtS);
    this.humidityNoise.step(dtS);
    for (const n of this.voltageNoise) n.step(dtS);
    this.valveNoise.step(dtS);
    const ambient = this.ambient(now);
    for (const m of this.miners) {
      const uptime = m.uptimeS;
      m.step(now, dtS, this.coolantFor(m.tankNo));
      if (settling) m.uptimeS = uptime;
    }
    const heatByTank = new Array<number>(this.tanks.length).fill(0);
    for (const m of this.miners) if (m.tankNo !== null) heatByTank[m.tankNo - 1]! += m.powerW / 1000;
    this.tanks.forEach((t, i) => {
      t.step(dtS, heatByTank[i]!, ambient);
    });
    const itKw = this.minersPowerKw();
    const loadFrac = itKw / Math.max(this.designHeatKw, 1);
    if (this.hydro) this.stepHydro(dtS, itKw, ambient);
    const containerTarget = this.kind === 'air' ? ambient + 3 + 10 * loadFrac : ambient + 3 + 3 * loadFrac;
    this.containerTemp = relax(this.containerTemp, containerTarget, dtS, 300);
    if (!settling) {
      this.updateMeterPower();
      for (const meter of this.meters) meter.energyKwh += (meter.powerKw * dtS) / 3600;
    }
  }

  private stepHydro(dtS: number, heatKw: number, ambient: number): void {
    const loop = this.hydro!;
    const design = Math.max(this.designHeatKw, 1);
    for (const p of loop.pumps) {
      const target = p.on ? (loop.controlMode === 'auto' ? 0.9 : p.manualPct / 100) : 0;
      p.frac = p.tripped ? 0 : relax(p.frac, target, dtS, 10);
    }
    loop.valve = loop.valveStuck ?? clamp(80 + this.valveNoise.current, 0, 100);
    const flowFrac = loop.pumps.reduce((s, p) => s + p.frac, 0) / loop.pumps.length;
    // Dry cooler: 10 °C approach at design heat; water loop: 8 °C rise at design heat, full flow.
    loop.waterIn = relax(loop.waterIn, ambient + (10 * heatKw) / design, dtS, 600);
    // A stuck valve (injected `flow_low`) starves the metered branch; the bypass keeps half the cooling.
    const valve = loop.valveStuck == null ? loop.valve : Math.max(loop.valve, 40);
    const flow = (design / 8) * Math.max(flowFrac * (valve / 80), 0.04);
    loop.waterOut = relax(loop.waterOut, loop.waterIn + Math.min(heatKw / flow, 40), dtS, 60);
  }

  /** Hydro loop flow, m³/h (Q = 1.163 · flow · ΔT at design). */
  private flowRate(): number {
    const loop = this.hydro!;
    const design = Math.max(this.designHeatKw, 1);
    const flowFrac = loop.pumps.reduce((s, p) => s + p.frac, 0) / loop.pumps.length;
    return (design / (1.163 * 8)) * flowFrac * (loop.valve / 80);
  }

  /** Roll this report's fault events (miners, tank probes, box sensors). */
  private rollFaults(now: number): void {
    if (this.faultRate <= 0) return;
    for (const m of this.miners) m.rollFault(now, this.faultRate);
    for (const t of this.tanks) t.rollFault(this.faultRate);
    if (this.rng.chance(this.faultRate)) this.boxGlitch = this.rng.chance(0.5) ? 'temperature' : 'humidity';
  }

  /** Advance to `now`, roll faults, and build the telemetry message with sequence number `seq`. */
  report(seq: number, now: number): TelemetryMessage {
    this.advance(now);
    expireFaults(this, now);
    this.rollFaults(now);
    const ambient = this.ambient(now);
    const glitch = this.boxGlitch;
    this.boxGlitch = null;
    const box: BoxTelemetry = {
      temperature: glitch === 'temperature' ? NO_READING : round(this.containerTemp, 1),
      humidity:
        glitch === 'humidity'
          ? NO_READING
          : round(clamp(this.humidityBase + this.humidityNoise.current, 10, 95), 1),
      voltage: this.voltageBase.map((v, i) =>
        round(clamp(v + this.voltageNoise[i]!.current, 330, 430) - this.voltageSag[i]!, 1),
      ) as [number, number, number],
      power_kw: round(this.meters[0].powerKw + this.meters[1].powerKw, 2),
      meters: this.meters
        .filter((m) => !this.missingMeters.has(m.no))
        .map((m) => ({
          no: m.no,
          energy_kwh: round(m.energyKwh, 3),
          power_kw: round(m.powerKw, 2),
        })),
      public_ip: this.publicIp,
    };
    if (this.kind === 'immersion') {
      const pumps = this.tanks.map((t) => t.pump.frac);
      const mean = pumps.reduce((s, f) => s + f, 0) / Math.max(pumps.length, 1);
      box.immersion = { status: pumps.some((f) => f > 0.05) ? 'on' : 'off', percent: round(mean * 100, 1) };
    }
    if (this.hydro) {
      box.water_in_temp = round(this.hydro.waterIn, 1);
      box.water_out_temp = round(this.hydro.waterOut, 1);
      box.flow_rate = round(this.flowRate(), 2);
      box.valve_opening = round(this.hydro.valve, 1);
      box.pumps = this.hydro.pumps.map((p) => ({
        no: p.no,
        status: p.on ? 'on' : 'off',
        // Drive units like the fans: 5000 = 50 Hz, so the console shows the load against 5000/6000.
        speed: Math.round(p.frac * FAN_FULL_SPEED),
      }));
    }
    return {
      v: PROTOCOL_VERSION,
      seq,
      ts: Math.round(now),
      box,
      tanks: this.tanks.map((t) => t.telemetry(ambient)),
      miners: this.miners.map((m) => m.telemetry(now)),
    };
  }

  /** Execute a command at time `now`. Never throws: refusals come back as `{ ok: false, error }`. */
  execute(command: CommandMessage, now: number): CommandResult {
    this.advance(now);
    try {
      const result = executeCommand(this, command, now);
      this.updateMeterPower();
      return result;
    } catch (error) {
      return { ok: false, error: `internal error: ${(error as Error).message}`.slice(0, 500) };
    }
  }
}
