import { poolName } from './catalog.js';
import type { FboxModel } from './fbox.js';
import type { Miner } from './miner.js';
import type { Tank } from './tank.js';

/**
 * Faults that can be injected by name into a simulated FBOX (issue 13): each one is what a default
 * alert rule of the cloud watches for (docs/alerts.md, "Simulated faults").
 */
export const FAULT_NAMES = [
  'voltage_sag',
  'tank_hot',
  'fan_fail',
  'miner_fault',
  'flow_low',
  'pump_fault',
  'meter_missing',
  'pool_hijack',
  'hashrate_drop',
] as const;
export type FaultName = (typeof FAULT_NAMES)[number];

const minute = 60_000;

/**
 * How long a fault lasts unless told: longer than its default rule's sustain time plus the time the
 * physics takes to cross the threshold (a hot tank warms over ~2 min; a hashrate rule waits 10 min),
 * so the alert opens, then recovers.
 */
export const FAULT_DEFAULT_DURATION_MS: Record<FaultName, number> = {
  voltage_sag: 3 * minute,
  tank_hot: 6 * minute,
  fan_fail: 4 * minute,
  miner_fault: 4 * minute,
  flow_low: 4 * minute,
  pump_fault: 3 * minute,
  meter_missing: 3 * minute,
  pool_hijack: 4 * minute,
  hashrate_drop: 13 * minute,
};

/** The pool a hijacked miner reports (a documentation-only host: never a real pool). */
export const HIJACK_POOL_ADDRESS = 'stratum+tcp://stratum.hijack.example:3333';
export const HIJACK_WORKER = 'x7hj2k.001';

/**
 * Volts a sagging phase loses: ~310 V from the usual ~390 V. A phase reads up to ~412 V (its base
 * 381–397 V plus noise of σ 5 V), so even that one falls below the 342 V rule.
 */
export const VOLTAGE_SAG_V = 80;
/** Extra oil outlet rise of a hot tank, °C: ~60 °C from ~45 °C, above the 55 °C rule within ~2 min. */
export const TANK_OVERHEAT_C = 15;
/** Opening of a stuck loop valve, %: flow ~2.5 % of normal. */
export const STUCK_VALVE_PCT = 2;

/** Which fault, where (defaults: tank 1, fan 1, pump 1, phase A, meter 2, the first running miner). */
export interface FaultRequest {
  name: FaultName;
  /** `tank_hot`, `fan_fail`, and `pump_fault` on an immersion box (its oil pump). */
  tank?: number;
  /** `fan_fail`: the fan's position in its tank. */
  fan?: number;
  /** `pump_fault` on a hydro box: the loop pump. */
  pump?: number;
  /** `voltage_sag`: 1 = A, 2 = B, 3 = C. */
  phase?: number;
  /** `meter_missing`: 1 or 2. */
  meter?: number;
  /** `hashrate_drop`, `miner_fault`, `pool_hijack`: the miner's SN. */
  miner?: string;
  durationMs?: number;
}

/** An injected fault, as listed: what, where, since and until when (ms). */
export interface FaultInfo {
  name: FaultName;
  deviceId: string;
  /** Where in the box: `tank 1`, `tank 1 fan 2`, `pump 1`, `phase A`, `meter 2`, a miner SN. */
  target: string;
  since: number;
  until: number;
}

export interface InjectedFault extends FaultInfo {
  undo: () => void;
}

/** A fault that does not fit the box (no tanks, no water loop, unknown SN …). */
export class FaultError extends Error {}

const inRange = (what: string, value: number, max: number): number => {
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw new FaultError(`${what} must be 1–${max}, not ${value}`);
  return value;
};

const tankOf = (model: FboxModel, no = 1): Tank => {
  if (model.tanks.length === 0) throw new FaultError(`${model.deviceId} has no tanks`);
  return model.tank(inRange('tank', no, model.tanks.length))!;
};

const minerOf = (model: FboxModel, sn: string | undefined, now: number): Miner => {
  if (sn !== undefined) {
    const miner = model.miner(sn);
    if (!miner) throw new FaultError(`${model.deviceId} has no miner ${sn}`);
    return miner;
  }
  const miner = model.miners.find((m) => m.isOnline(now) && !m.fault) ?? model.miners[0];
  if (!miner) throw new FaultError(`${model.deviceId} has no miners`);
  return miner;
};

/** Applies a fault to the model; returns where it went and how to undo it. */
const apply = (
  model: FboxModel,
  req: FaultRequest,
  now: number,
  until: number,
): { target: string; undo: () => void } => {
  switch (req.name) {
    case 'voltage_sag': {
      const phase = inRange('phase', req.phase ?? 1, 3);
      model.voltageSag[phase - 1] = VOLTAGE_SAG_V;
      return { target: `phase ${'ABC'[phase - 1]}`, undo: () => (model.voltageSag[phase - 1] = 0) };
    }
    case 'tank_hot': {
      const tank = tankOf(model, req.tank);
      tank.overheatC = TANK_OVERHEAT_C;
      return { target: `tank ${tank.no}`, undo: () => (tank.overheatC = 0) };
    }
    case 'fan_fail': {
      const tank = tankOf(model, req.tank);
      const no = inRange('fan', req.fan ?? 1, tank.fans.length);
      const fan = tank.fans[no - 1]!;
      fan.tripped = true;
      fan.frac = 0;
      return { target: `tank ${tank.no} fan ${no}`, undo: () => (fan.tripped = false) };
    }
    case 'pump_fault': {
      if (model.hydro) {
        const no = inRange('pump', req.pump ?? 1, model.hydro.pumps.length);
        const pump = model.hydro.pumps[no - 1]!;
        pump.tripped = true;
        pump.frac = 0;
        return { target: `pump ${no}`, undo: () => (pump.tripped = false) };
      }
      const tank = tankOf(model, req.tank);
      tank.pump.tripped = true;
      tank.pump.frac = 0;
      return { target: `tank ${tank.no} pump`, undo: () => (tank.pump.tripped = false) };
    }
    case 'flow_low': {
      const loop = model.hydro;
      if (!loop) throw new FaultError(`${model.deviceId} has no water loop (hydro boxes only)`);
      loop.valveStuck = STUCK_VALVE_PCT;
      return { target: 'valve', undo: () => (loop.valveStuck = null) };
    }
    case 'meter_missing': {
      const no = inRange('meter', req.meter ?? 2, 2) as 1 | 2;
      model.missingMeters.add(no);
      return { target: `meter ${no}`, undo: () => model.missingMeters.delete(no) };
    }
    case 'hashrate_drop': {
      const miner = minerOf(model, req.miner, now);
      miner.fault = { kind: 'drop', until, factor: 0.5 };
      return {
        target: miner.sn,
        undo: () => {
          if (miner.fault?.kind === 'drop') miner.fault = null;
        },
      };
    }
    case 'miner_fault': {
      const miner = minerOf(model, req.miner, now);
      miner.fault = { kind: 'fan', until, factor: 1 };
      return {
        target: miner.sn,
        undo: () => {
          if (miner.fault?.kind === 'fan') miner.fault = null;
        },
      };
    }
    case 'pool_hijack': {
      const miner = minerOf(model, req.miner, now);
      const saved = { poolAddress: miner.poolAddress, pool: miner.pool, worker: miner.worker };
      miner.poolAddress = HIJACK_POOL_ADDRESS;
      miner.pool = poolName(HIJACK_POOL_ADDRESS);
      miner.worker = HIJACK_WORKER;
      return {
        target: miner.sn,
        // A pool change the cloud sent meanwhile stays: only the hijacker's pool is undone.
        undo: () => {
          if (miner.poolAddress === HIJACK_POOL_ADDRESS) Object.assign(miner, saved);
        },
      };
    }
  }
};

const info = ({ undo: _, ...fault }: InjectedFault): FaultInfo => fault;

/**
 * Injects a fault into the model at `now` for `durationMs` (default per fault). The same fault on
 * the same target replaces the one running. Throws `FaultError` when it does not fit the box.
 */
export const injectFault = (model: FboxModel, req: FaultRequest, now: number): FaultInfo => {
  const duration = req.durationMs ?? FAULT_DEFAULT_DURATION_MS[req.name];
  if (!(duration > 0)) throw new FaultError('duration must be positive');
  const until = now + duration;
  const { target, undo } = apply(model, req, now, until);
  const previous = model.injected.findIndex((f) => f.name === req.name && f.target === target);
  if (previous >= 0) model.injected.splice(previous, 1);
  const fault: InjectedFault = { name: req.name, deviceId: model.deviceId, target, since: now, until, undo };
  model.injected.push(fault);
  return info(fault);
};

/** Clears the injected faults matching `name` (every one when absent); returns them. */
export const clearFaults = (model: FboxModel, name?: FaultName): FaultInfo[] => {
  const cleared: FaultInfo[] = [];
  for (const fault of [...model.injected]) {
    if (name !== undefined && fault.name !== name) continue;
    fault.undo();
    model.injected.splice(model.injected.indexOf(fault), 1);
    cleared.push(info(fault));
  }
  return cleared;
};

/** Ends the faults whose time is up (the model calls it on every report). */
export const expireFaults = (model: FboxModel, now: number): void => {
  for (const fault of [...model.injected]) {
    if (fault.until > now) continue;
    fault.undo();
    model.injected.splice(model.injected.indexOf(fault), 1);
  }
};

export const activeFaults = (model: FboxModel): FaultInfo[] => model.injected.map(info);

/** Whether a fault fits the box at all (scenarios pick among the boxes it fits). */
export const faultFits = (model: FboxModel, name: FaultName): boolean => {
  if (name === 'flow_low') return model.hydro !== null;
  if (name === 'tank_hot' || name === 'fan_fail') return model.tanks.length > 0;
  if (name === 'pump_fault') return model.hydro !== null || model.tanks.length > 0;
  if (name === 'hashrate_drop' || name === 'miner_fault' || name === 'pool_hijack')
    return model.miners.length > 0;
  return true;
};
