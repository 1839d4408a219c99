import {
  type CommandMessage,
  FboxConfigParamsSchema,
  MinerModeParamsSchema,
  MinerOverclockParamsSchema,
  MinerPoolParamsSchema,
  MinerResaveParamsSchema,
  PduOutletParamsSchema,
  parseCommandParams,
} from '@fbox/contracts';
import { z } from 'zod';
import { poolName } from './catalog.js';
import type { CommandResult, FboxModel } from './fbox.js';
import type { Miner } from './miner.js';
import { minerLog } from './miner-log.js';
import type { Tank } from './tank.js';

/** Bytes of log a `miner.logs` command gets when it names no bound (the newest of the window). */
const DEFAULT_LOG_BYTES = 1024 * 1024;

/** Reporting interval limits accepted by `fbox.config`, ms. */
export const MIN_INTERVAL_MS = 1000;
export const MAX_INTERVAL_MS = 2 * 3600_000;

const onOff = z.enum(['on', 'off']);

const schemas = {
  mode: MinerModeParamsSchema,
  pool: MinerPoolParamsSchema,
  resave: MinerResaveParamsSchema,
  overclock: MinerOverclockParamsSchema,
  controller: z
    .object({
      control_mode: z.enum(['auto', 'manual']).optional(),
      device: z.enum(['fan', 'pump']).optional(),
      no: z.number().int().min(1).optional(),
      status: onOff.optional(),
      speed: z.number().min(0).max(100).optional(),
    })
    .refine((p) => p.control_mode !== undefined || p.device !== undefined, 'give control_mode and/or device')
    .refine(
      (p) => p.device === undefined || (p.no !== undefined && p.status !== undefined),
      'device needs no and status',
    ),
  oil: z.looseObject({
    energy_saving: z.boolean().optional(),
    setpoint: z.number().min(20).max(70).optional(),
  }),
  outlet: PduOutletParamsSchema,
  logs: z
    .object({
      from: z.number().int().min(0),
      to: z.number().int().min(0),
      max_bytes: z.number().int().min(1024).optional(),
    })
    .refine((p) => p.from < p.to, 'from must be before to'),
  // Known settings are checked; other keys are stored as given.
  config: FboxConfigParamsSchema,
};

class Refused extends Error {}

const parse = <T>(schema: z.ZodType<T>, params: unknown): T => {
  const result = parseCommandParams(schema, params);
  if (!result.ok) throw new Refused(result.error);
  return result.value;
};

const minerOf = (model: FboxModel, command: CommandMessage): Miner => {
  const sn = command.target.sn;
  if (!sn) throw new Refused('target.sn is required');
  const miner = model.miner(sn);
  if (!miner) throw new Refused(`unknown miner sn ${sn} on ${model.deviceId}`);
  return miner;
};

const tankOf = (model: FboxModel, command: CommandMessage): Tank => {
  if (model.tanks.length === 0) throw new Refused(`${model.deviceId} has no tanks (${model.kind} box)`);
  const no = command.target.tank_no;
  if (no === undefined) throw new Refused('target.tank_no is required');
  const tank = model.tank(no);
  if (!tank) throw new Refused(`unknown tank ${no} on ${model.deviceId} (it has ${model.tanks.length})`);
  return tank;
};

/** Reporting interval from `fbox.config` params, ms, when one is given. */
const intervalOf = (params: Record<string, unknown>): number | undefined => {
  const candidates: Array<[string, number]> = [
    ['interval_ms', 1],
    ['intervalMs', 1],
    ['interval_s', 1000],
    ['reporting_interval_s', 1000],
    ['report_interval', 1000],
    ['reporting_interval', 1000],
  ];
  for (const [key, scale] of candidates) {
    if (!(key in params)) continue;
    const raw = params[key];
    const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
    if (typeof value !== 'number' || !Number.isFinite(value))
      throw new Refused(`invalid params: ${key} must be a number`);
    const ms = value * scale;
    if (ms < MIN_INTERVAL_MS || ms > MAX_INTERVAL_MS)
      throw new Refused(
        `invalid params: ${key} out of range (${MIN_INTERVAL_MS / 1000} s to ${MAX_INTERVAL_MS / 1000} s)`,
      );
    return Math.round(ms);
  }
  return undefined;
};

const controllerSwitch = (model: FboxModel, command: CommandMessage): void => {
  const p = parse(schemas.controller, command.params);
  // Hydro boxes: the water-loop pumps of the box (no tank target).
  if (model.hydro && command.target.tank_no === undefined) {
    if (p.device === 'fan') throw new Refused(`${model.deviceId} has no controllable fans (hydro box)`);
    const loop = model.hydro;
    if (p.device) {
      const pump = loop.pumps.find((x) => x.no === p.no);
      if (!pump) throw new Refused(`unknown pump ${p.no} on ${model.deviceId} (it has ${loop.pumps.length})`);
      pump.on = p.status === 'on';
      if (p.speed !== undefined) pump.manualPct = p.speed;
      if (p.control_mode === undefined) loop.controlMode = 'manual';
    }
    if (p.control_mode) loop.controlMode = p.control_mode;
    return;
  }
  const tank = tankOf(model, command);
  if (p.device) {
    const devices = p.device === 'fan' ? tank.fans : [tank.pump];
    const device = devices[p.no! - 1];
    if (!device)
      throw new Refused(`unknown ${p.device} ${p.no} in tank ${tank.no} (it has ${devices.length})`);
    device.on = p.status === 'on';
    if (p.speed !== undefined) device.manualPct = p.speed;
    // Switching a device by hand overrides the controller, unless the same command asks for auto.
    if (p.control_mode === undefined) tank.controlMode = 'manual';
  }
  if (p.control_mode) tank.controlMode = p.control_mode;
};

/** Apply one command to the model; refusals (unknown target, invalid params) come back as `ok: false`. */
export const executeCommand = (model: FboxModel, command: CommandMessage, now: number): CommandResult => {
  try {
    switch (command.kind) {
      case 'miner.restart': {
        const miner = minerOf(model, command);
        if (!miner.powered)
          throw new Refused(`miner ${miner.sn} has no power (outlet ${miner.outlet} is off)`);
        miner.reboot(now);
        return { ok: true };
      }
      case 'miner.mode': {
        const miner = minerOf(model, command);
        miner.mode = parse(schemas.mode, command.params).mode;
        return { ok: true };
      }
      case 'miner.pool': {
        const miner = minerOf(model, command);
        const p = parse(schemas.pool, command.params);
        miner.poolAddress = p.pool_address;
        miner.pool = poolName(p.pool_address);
        if (p.worker) miner.worker = p.worker;
        return { ok: true };
      }
      case 'miner.resave_account': {
        const miner = minerOf(model, command);
        const p = parse(schemas.resave, command.params);
        if (p.worker) miner.worker = p.worker;
        if (p.pool_address) {
          miner.poolAddress = p.pool_address;
          miner.pool = poolName(p.pool_address);
        }
        return { ok: true };
      }
      case 'miner.overclock': {
        const miner = minerOf(model, command);
        const p = parse(schemas.overclock, command.params);
        miner.overclock = {
          enabled: p.enabled ?? p.status === 'on',
          ...(p.min !== undefined ? { min: p.min } : {}),
          ...(p.max !== undefined ? { max: p.max } : {}),
        };
        return { ok: true };
      }
      case 'tank.controller_switch':
        controllerSwitch(model, command);
        return { ok: true };
      case 'tank.oil_setting': {
        const tank = tankOf(model, command);
        const p = parse(schemas.oil, command.params);
        if (p.energy_saving !== undefined) tank.energySaving = p.energy_saving;
        if (p.setpoint !== undefined) tank.setpoint = p.setpoint;
        Object.assign(tank.settings, command.params);
        return { ok: true };
      }
      case 'pdu.outlet': {
        const outlet = command.target.outlet;
        if (outlet === undefined) throw new Refused('target.outlet is required');
        const { status } = parse(schemas.outlet, command.params);
        const fed = model.miners.filter((m) => m.outlet === outlet);
        if (fed.length === 0) throw new Refused(`unknown PDU outlet ${outlet} on ${model.deviceId}`);
        for (const m of fed) m.setPowered(status === 'on', now);
        return { ok: true };
      }
      case 'meter.reset': {
        const no = command.target.meter_no;
        if (no === undefined) throw new Refused('target.meter_no is required');
        const meter = model.meters.find((m) => m.no === no);
        if (!meter) throw new Refused(`unknown meter ${no}`);
        meter.energyKwh = 0;
        return { ok: true };
      }
      case 'miner.logs': {
        const miner = minerOf(model, command);
        const p = parse(schemas.logs, command.params);
        if (!miner.isOnline(now)) throw new Refused(`miner ${miner.sn} unreachable (${miner.ip})`);
        return { ok: true, log: minerLog(miner, p.from, p.to, now, p.max_bytes ?? DEFAULT_LOG_BYTES) };
      }
      case 'fbox.config': {
        const params = parse(schemas.config, command.params) as Record<string, unknown>;
        const intervalMs = intervalOf(params);
        if (intervalMs !== undefined && intervalMs < model.minIntervalMs)
          throw new Refused(
            `reporting interval ${intervalMs / 1000} s is below this gateway's minimum of ${model.minIntervalMs / 1000} s`,
          );
        Object.assign(model.config, params);
        return intervalMs === undefined ? { ok: true } : { ok: true, intervalMs };
      }
      default: {
        const kind: never = command.kind;
        throw new Refused(`unsupported command kind ${String(kind)}`);
      }
    }
  } catch (error) {
    if (error instanceof Refused) return { ok: false, error: error.message.slice(0, 500) };
    throw error;
  }
};
