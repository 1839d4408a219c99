import type { MinerTelemetry } from '@fbox/contracts';
import type { MinerModelSpec } from './catalog.js';
import { clamp, type Rng, relax, round, SmoothNoise } from './random.js';

export type BoxKind = 'air' | 'immersion' | 'hydro';
export type MinerMode = 'high' | 'low';
export type MinerFaultKind = 'sensor' | 'sag' | 'offline' | 'fan' | 'temp_high';

/** "No reading" marker of the protocol. */
export const NO_READING = -999;

/** Hashrate and power factors of the power modes. Low mode trades ~30 % hashrate for ~38 % power. */
export const MODE_FACTORS: Record<MinerMode, { hashrate: number; power: number }> = {
  high: { hashrate: 1, power: 1 },
  low: { hashrate: 0.7, power: 0.62 },
};

/** Overclocking (auto frequency) on: a modest gain for a larger power bill. */
export const OVERCLOCK_FACTORS = { hashrate: 1.08, power: 1.12 } as const;

/**
 * What a fault event turns into, by weight. `sensor`: one chip temperature reads -999 for one report;
 * `sag`: a hash board drops out (fault `chain`, hashrate 40–60 %); `offline`: the miner crashes and
 * reboots; `fan`: fan fault (hotter chips); `temp_high`: overheating (hotter, throttled).
 */
export const FAULT_WEIGHTS: ReadonlyArray<readonly [MinerFaultKind, number]> = [
  ['sensor', 0.4],
  ['sag', 0.25],
  ['offline', 0.15],
  ['fan', 0.1],
  ['temp_high', 0.1],
];

/** How long a fault lasts, ms (min, max). */
export const FAULT_DURATIONS_MS: Record<Exclude<MinerFaultKind, 'sensor'>, readonly [number, number]> = {
  sag: [5 * 60_000, 20 * 60_000],
  offline: [2 * 60_000, 10 * 60_000],
  fan: [3 * 60_000, 10 * 60_000],
  temp_high: [3 * 60_000, 10 * 60_000],
};

/** Chip temperature rise over the coolant at full nominal power, °C, by cooling. */
const CHIP_RISE: Record<BoxKind, number> = { air: 36, immersion: 27, hydro: 22 };
/** Average chip temperature above which a miner reports `temp_high` and throttles. */
const OVERHEAT_C = 90;

export interface MinerTimings {
  /** Time a miner stays offline while rebooting (restart command, power-on, crash), ms. */
  restartMs: number;
  /** Time from boot to full hashrate, ms. */
  rampMs: number;
}

export interface MinerIdentity {
  sn: string;
  ip: string;
  worker: string;
  poolAddress: string;
  pool: string;
  firmware: string;
  tankNo: number | null;
  outlet: number;
}

interface ActiveFault {
  /** `drop`: an injected hashrate drop without a fault code (`hashrate_drop`). */
  kind: Exclude<MinerFaultKind, 'sensor'> | 'drop';
  until: number;
  /** Hashrate factor while it lasts. */
  factor: number;
}

/** Something a miner's own log records: a reboot (command, crash or power-on) or a loss of power. */
export interface MinerEvent {
  at: number;
  kind: 'reboot' | 'power_off';
  /** A reboot: when the miner is up again. */
  until?: number;
}

/** Events a miner remembers for its log (the newest). */
const JOURNAL_SIZE = 200;

/** One simulated miner. Time moves only through `step`; all randomness comes from its own `Rng`. */
export class Miner {
  readonly sn: string;
  readonly ip: string;
  readonly tankNo: number | null;
  readonly outlet: number;
  firmware: string;
  worker: string;
  poolAddress: string;
  pool: string;
  mode: MinerMode = 'high';
  overclock: { enabled: boolean; min?: number; max?: number } = { enabled: false };
  /** Outlet power. */
  powered = true;
  /** Rebooting until this time (ms), or null when up. */
  bootUntil: number | null = null;
  uptimeS: number;
  hashrateRealtime: number;
  hashrateAvg: number;
  powerW: number;
  chipAvgTemp: number;
  chipMaxTemp: number;
  fault: ActiveFault | null = null;
  /** Reboots and power losses, oldest first, for the miner's log. */
  readonly journal: MinerEvent[] = [];
  /** A chip sensor that reads -999 in the next report. */
  private glitch: 'avg' | 'max' | null = null;
  private readonly noise: SmoothNoise;
  private readonly spread: number;

  constructor(
    readonly spec: MinerModelSpec,
    identity: MinerIdentity,
    private readonly kind: BoxKind,
    private readonly rng: Rng,
    private readonly timings: MinerTimings,
    coolantTemp: number,
  ) {
    this.sn = identity.sn;
    this.ip = identity.ip;
    this.tankNo = identity.tankNo;
    this.outlet = identity.outlet;
    this.firmware = identity.firmware;
    this.worker = identity.worker;
    this.poolAddress = identity.poolAddress;
    this.pool = identity.pool;
    this.noise = new SmoothNoise(rng, 0.012, 180);
    this.spread = rng.range(5, 9);
    // Start in steady state: been up for a while, at full hashrate, warm.
    this.uptimeS = Math.round(rng.range(2, 40) * 3600);
    this.hashrateRealtime = this.theoretical() * (1 + this.noise.current);
    this.hashrateAvg = this.theoretical();
    this.powerW = this.targetPower(1, 1);
    this.chipAvgTemp = coolantTemp + CHIP_RISE[kind] * (this.powerW / spec.powerW);
    this.chipMaxTemp = this.chipAvgTemp + this.spread;
  }

  /** Nominal hashrate for the current mode and overclock, TH/s. */
  theoretical(): number {
    const oc = this.overclock.enabled ? OVERCLOCK_FACTORS.hashrate : 1;
    return this.spec.hashrateTh * MODE_FACTORS[this.mode].hashrate * oc;
  }

  isOnline(now: number): boolean {
    return this.powered && (this.bootUntil === null || now >= this.bootUntil);
  }

  /** Fault code as reported: empty when healthy. */
  faultCode(): string {
    if (!this.fault || this.fault.kind === 'offline' || this.fault.kind === 'drop')
      return this.chipAvgTemp > OVERHEAT_C ? 'temp_high' : '';
    return this.fault.kind === 'sag' ? 'chain' : this.fault.kind;
  }

  private targetPower(ramp: number, hashFactor: number): number {
    const oc = this.overclock.enabled ? OVERCLOCK_FACTORS.power : 1;
    const base = this.spec.powerW * MODE_FACTORS[this.mode].power * oc;
    // A lost hash board saves part of the power; throttling too.
    const loss = hashFactor < 1 ? 0.7 + 0.3 * hashFactor : 1;
    return base * (0.85 + 0.15 * ramp) * loss * (1 + 0.4 * this.noise.current);
  }

  /**
   * Holds the hashrate at `factor` of normal (a hash board fault, reported as `chain`) until `until`
   * (default: until cleared with `degrade(null)`). A restart does not clear it. Tests use it to force
   * a miner below a watchdog's hashrate condition.
   */
  degrade(factor: number | null, until = Number.POSITIVE_INFINITY): void {
    this.fault = factor === null ? null : { kind: 'sag', until, factor };
  }

  /** Reboot: offline for `restartMs`, then up again from uptime 0. */
  reboot(now: number, offlineMs = this.timings.restartMs): void {
    this.remember({ at: now, kind: 'reboot', until: now + offlineMs });
    this.bootUntil = now + offlineMs;
    this.uptimeS = 0;
    this.hashrateAvg = 0;
  }

  private remember(event: MinerEvent): void {
    this.journal.push(event);
    if (this.journal.length > JOURNAL_SIZE) this.journal.shift();
  }

  setPowered(on: boolean, now: number): void {
    if (on === this.powered) return;
    this.powered = on;
    if (on) this.reboot(now);
    else {
      this.remember({ at: now, kind: 'power_off' });
      this.bootUntil = null;
      this.uptimeS = 0;
      this.hashrateAvg = 0;
      if (this.fault?.kind === 'offline') this.fault = null;
    }
  }

  /** Advance by `dtS` seconds ending at `now`, with the coolant (oil, water or air) at `coolantTemp`. */
  step(now: number, dtS: number, coolantTemp: number): void {
    if (this.fault && now >= this.fault.until) this.fault = null;
    let booted = false;
    if (this.bootUntil !== null && now >= this.bootUntil) {
      // Booted: count uptime from the end of the boot.
      this.uptimeS = (now - this.bootUntil) / 1000;
      this.bootUntil = null;
      booted = true;
    }
    const n = this.noise.step(dtS);
    const online = this.isOnline(now);
    if (online) {
      if (!booted) this.uptimeS += dtS;
      const ramp = clamp(0.15 + (0.85 * this.uptimeS * 1000) / this.timings.rampMs, 0, 1);
      let factor = this.fault && this.fault.kind !== 'offline' ? this.fault.factor : 1;
      if (this.chipAvgTemp > OVERHEAT_C) factor = Math.min(factor, 0.7);
      this.hashrateRealtime = Math.max(0, this.theoretical() * (1 + n) * ramp * factor);
      const window = Math.min(Math.max(this.uptimeS, dtS), 900);
      this.hashrateAvg += (this.hashrateRealtime - this.hashrateAvg) * Math.min(1, dtS / window);
      this.powerW = this.targetPower(ramp, factor);
    } else {
      this.hashrateRealtime = 0;
      this.hashrateAvg = 0;
      this.powerW = 0;
    }
    let extra = 0;
    if (this.fault?.kind === 'fan') extra = 8;
    if (this.fault?.kind === 'temp_high') extra = 20;
    const target =
      coolantTemp + CHIP_RISE[this.kind] * (this.powerW / this.spec.powerW) + (online ? extra : 0);
    this.chipAvgTemp = relax(this.chipAvgTemp, target, dtS, 60);
    const spread = online ? this.spread * (0.5 + 0.5 * (this.powerW / this.spec.powerW)) : 0.5;
    this.chipMaxTemp = relax(this.chipMaxTemp, this.chipAvgTemp + spread + (extra > 0 ? 4 : 0), dtS, 60);
  }

  /**
   * Roll this report's fault event (probability `rate`). A `sensor` event always applies; the others
   * only start on a running miner without a current fault.
   */
  rollFault(now: number, rate: number): MinerFaultKind | null {
    if (!this.rng.chance(rate)) return null;
    const kind = this.rng.weighted(FAULT_WEIGHTS);
    if (kind === 'sensor') {
      this.glitch = this.rng.chance(0.5) ? 'avg' : 'max';
      return kind;
    }
    if (this.fault || !this.isOnline(now)) return null;
    const [min, max] = FAULT_DURATIONS_MS[kind];
    const until = now + this.rng.range(min, max);
    if (kind === 'offline') {
      this.fault = { kind, until, factor: 0 };
      this.reboot(now, until - now);
    } else {
      const factor = kind === 'sag' ? this.rng.range(0.4, 0.6) : kind === 'temp_high' ? 0.85 : 1;
      this.fault = { kind, until, factor };
    }
    return kind;
  }

  telemetry(now: number): MinerTelemetry {
    const glitch = this.glitch;
    this.glitch = null;
    return {
      sn: this.sn,
      ip: this.ip,
      worker: this.worker,
      model: this.spec.model,
      brand: this.spec.brand,
      pool: this.pool,
      pool_address: this.poolAddress,
      firmware: this.firmware,
      tank_no: this.tankNo,
      outlet: this.outlet,
      online: this.isOnline(now),
      mode: this.mode,
      chip_avg_temp: glitch === 'avg' ? NO_READING : round(this.chipAvgTemp, 1),
      chip_max_temp: glitch === 'max' ? NO_READING : round(this.chipMaxTemp, 1),
      hashrate_theoretical: round(this.theoretical(), 2),
      hashrate_realtime: round(this.hashrateRealtime, 2),
      hashrate_avg: round(this.hashrateAvg, 2),
      power_w: Math.round(this.powerW),
      fault: this.isOnline(now) ? this.faultCode() : '',
      uptime_s: this.isOnline(now) ? Math.floor(this.uptimeS) : 0,
    };
  }
}
