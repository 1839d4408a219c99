import type { TankTelemetry } from '@fbox/contracts';
import { NO_READING } from './miner.js';
import { clamp, type Rng, relax, round, SmoothNoise } from './random.js';

/** Fan speed at 100 %, in the rpm-like units the controllers report (the web's percent-load base). */
export const FAN_FULL_SPEED = 5000;
export const FANS_PER_TANK = 4;
/** Oil inlet set point of the auto controller, °C; energy saving raises it. */
export const DEFAULT_SETPOINT_C = 40;
export const ENERGY_SAVING_SETPOINT_RISE_C = 5;

export interface DeviceState {
  on: boolean;
  /** Speed used in manual mode, percent. */
  manualPct: number;
  /** Current speed, fraction 0–1. */
  frac: number;
  /** An injected drive fault: stopped at 0 whatever it is switched to. */
  tripped?: boolean;
}

/**
 * An immersion tank: miners sit in oil; a pump moves the oil through a heat exchanger whose water
 * loop is cooled by dry-cooler fans. In `auto` the controller drives the fans to hold the oil inlet
 * at its set point; in `manual` fans and pump run as switched.
 */
export class Tank {
  controlMode: 'auto' | 'manual' = 'auto';
  energySaving = false;
  setpoint = DEFAULT_SETPOINT_C;
  readonly settings: Record<string, unknown> = {};
  readonly fans: DeviceState[];
  readonly pump: DeviceState;
  oilIn: number;
  oilOut: number;
  /** Injected fault (`tank_hot`): extra oil outlet rise, °C (fouled exchanger, blocked flow). */
  overheatC = 0;
  private readonly levelBase: number;
  private readonly levelNoise: SmoothNoise;
  private readonly waterNoise: SmoothNoise;
  private readonly probeOffsets: number[];
  /** Tanks differ: heat exchangers foul, sensors drift; without this every tank would read alike. */
  private readonly exchanger: number;
  private readonly tempNoise: SmoothNoise;
  private glitch: 'oil_in_temp' | 'oil_out_temp' | 'liquid_level' | number | null = null;

  constructor(
    readonly no: number,
    /** Heat of its miners at nominal power, kW: sizes the cooling. */
    readonly designHeatKw: number,
    private readonly rng: Rng,
    ambient: number,
  ) {
    this.fans = Array.from({ length: FANS_PER_TANK }, () => ({ on: true, manualPct: 80, frac: 0.6 }));
    this.pump = { on: true, manualPct: 90, frac: 0.9 };
    this.oilIn = Math.max(ambient + 8, this.setpoint + rng.range(-1, 1));
    this.oilOut = this.oilIn + 6;
    this.levelBase = rng.range(88, 95);
    this.levelNoise = new SmoothNoise(rng, 0.25, 600);
    this.waterNoise = new SmoothNoise(rng, 0.3, 300);
    this.probeOffsets = Array.from({ length: 4 }, () => rng.range(-0.6, 0.6));
    this.exchanger = rng.range(0.85, 1.1);
    this.tempNoise = new SmoothNoise(rng, 0.35, 240);
  }

  /** Oil temperature around the miners: what their chips are cooled by. */
  get coolantTemp(): number {
    return this.oilOut;
  }

  get effectiveSetpoint(): number {
    return this.setpoint + (this.energySaving ? ENERGY_SAVING_SETPOINT_RISE_C : 0);
  }

  meanFanFrac(): number {
    return this.fans.reduce((s, f) => s + f.frac, 0) / this.fans.length;
  }

  /** Electric power of fans and pump, kW (fan law: cube of speed). */
  coolingPowerKw(): number {
    const fanRated = Math.max(0.5, this.designHeatKw * 0.02);
    const pumpRated = Math.max(0.5, this.designHeatKw * 0.03);
    const fans = this.fans.reduce((s, f) => s + fanRated * f.frac ** 3, 0);
    return fans + pumpRated * this.pump.frac ** 3 + 0.1;
  }

  step(dtS: number, heatKw: number, ambient: number): void {
    const design = Math.max(this.designHeatKw, 1);
    if (this.controlMode === 'auto') {
      const error = this.oilIn - this.effectiveSetpoint;
      const fanTarget = clamp(0.5 + 0.15 * error, 0.15, 1);
      for (const fan of this.fans)
        fan.frac = fan.on ? relax(fan.frac, fanTarget, dtS, 30) : relax(fan.frac, 0, dtS, 10);
      const pumpTarget = this.pump.on ? (this.energySaving ? 0.7 : 0.9) : 0;
      this.pump.frac = relax(this.pump.frac, pumpTarget, dtS, 10);
    } else {
      for (const fan of this.fans) fan.frac = relax(fan.frac, fan.on ? fan.manualPct / 100 : 0, dtS, 10);
      this.pump.frac = relax(this.pump.frac, this.pump.on ? this.pump.manualPct / 100 : 0, dtS, 10);
    }
    for (const drive of [...this.fans, this.pump]) if (drive.tripped) drive.frac = 0;
    // Heat exchanger + dry cooler: 10 °C approach over ambient at design heat with fans at 100 %.
    const ua = (design / 10) * this.exchanger * (0.08 + 0.92 * this.meanFanFrac());
    const inTarget = ambient + heatKw / ua;
    this.oilIn = relax(this.oilIn, inTarget, dtS, 600);
    // Oil loop: 6 °C rise through the tank at design heat with the pump at 100 %.
    const flow = (design / 6) * Math.max(this.pump.frac, 0.04);
    const outTarget = this.oilIn + Math.min(heatKw / flow, 45) + this.overheatC;
    this.oilOut = relax(this.oilOut, outTarget, dtS, 90);
    this.levelNoise.step(dtS);
    this.waterNoise.step(dtS);
    this.tempNoise.step(dtS);
  }

  /** One report's sensor glitch with probability `rate`: a probe or the level reads -999. */
  rollFault(rate: number): void {
    if (!this.rng.chance(rate)) return;
    this.glitch = this.rng.pick(['oil_in_temp', 'oil_out_temp', 'liquid_level', 0, 1, 2, 3] as const);
  }

  telemetry(ambient: number): TankTelemetry {
    const glitch = this.glitch;
    this.glitch = null;
    const probes = this.probeOffsets.map((offset, i) => {
      if (glitch === i) return NO_READING;
      const at = 0.2 + 0.25 * i;
      return round(this.oilIn + (this.oilOut - this.oilIn) * at + offset, 1);
    });
    return {
      no: this.no,
      oil_in_temp: glitch === 'oil_in_temp' ? NO_READING : round(this.oilIn + this.tempNoise.current, 1),
      oil_out_temp: glitch === 'oil_out_temp' ? NO_READING : round(this.oilOut + this.tempNoise.current, 1),
      liquid_level:
        glitch === 'liquid_level' ? NO_READING : round(this.levelBase + this.levelNoise.current, 1),
      fans: this.fans.map((f) => (f.frac < 0.005 ? 0 : Math.round(f.frac * FAN_FULL_SPEED))),
      // Drive output like the fans (0.01 Hz, 5000 = 50 Hz): the console shows it against 5000/6000.
      oil_pump_efficiency: Math.round(this.pump.frac * FAN_FULL_SPEED),
      water_in_temp: round(ambient + 3 + this.waterNoise.current, 1),
      water_speed: round(Math.max(0, (0.8 + 1.2 * this.pump.frac) * (1 + this.waterNoise.current / 10)), 2),
      short_circuit: false,
      energy_saving: this.energySaving,
      control_mode: this.controlMode,
      main_temperatures: probes,
    };
  }
}
