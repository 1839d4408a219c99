import {
  type CommandAck,
  type CommandMessage,
  FboxConfigParamsSchema,
  MinerModeParamsSchema,
  MinerOverclockParamsSchema,
  MinerPoolParamsSchema,
  MinerResaveParamsSchema,
  PduOutletParamsSchema,
  parseCommandParams,
} from '@fbox/contracts';
import { KeyedQueue } from './keyed-queue.js';
import { sleep } from './limit.js';
import { type Logger, silentLogger } from './logger.js';
import type { OutletStatus } from './pdu/bank.js';
import { type CommandResult, type Endpoint, endpointKey } from './protocol.js';
import type { MinerDriver } from './protocols.js';
import type { KnownMiner } from './registry.js';

/** The reporting interval a cloud's `fbox.config` may set, s (an FBOX's own bounds). */
export const REPORTING_INTERVAL_S = { min: 5, max: 60 } as const;

/** The pool password when the command gives none: pools that ignore it take this (the miners' own default). */
const POOL_PASSWORD = 'x';

/**
 * Alarm bands of `fbox.config` for the FBOX's own sensors. The collector has none and reports no
 * such reading (-999), so a band can never be crossed: it is taken as set, not refused (every
 * console save sends them, and a refusal would mark each save of a collector's FBOX as failed).
 */
const BOX_SENSOR_SETTINGS = new Set(['voltage_min', 'voltage_max', 'temperature_max', 'humidity_max']);

export interface CommandRunnerOptions {
  /** The known miner with this serial. */
  miner(sn: string): KnownMiner | undefined;
  /** What carries writes to it; null when its protocol is no longer enabled. */
  driver(miner: KnownMiner): MinerDriver | null;
  /** Switches an FBOX-wide outlet (PduBank.set); null when no PDU is configured. */
  switchOutlet: ((outlet: number, status: OutletStatus) => Promise<CommandResult>) | null;
  /** Applies a reporting interval the cloud set, s. */
  setReportingInterval(seconds: number): void;
  logger?: Logger;
}

type Outcome = CommandResult | Promise<CommandResult>;

const refused = (error: string): CommandResult => ({ ok: false, error });

/**
 * Executes the cloud's commands (docs/mqtt.md) on the miners and PDUs of the site: checks the
 * params as every gateway does (contracts' command params), maps each kind to its protocol's
 * write, runs writes to one miner one at a time (whatever protocol or web interface carries them),
 * and answers honestly what it cannot do.
 */
export class CommandRunner {
  private readonly writes = new KeyedQueue<string>();
  private readonly log: Logger;
  /** The Delay Switch (`fbox.config` `delay_switch_ms`): the gap between two outlet switches. */
  private delaySwitch = 0;
  private switching: Promise<unknown> = Promise.resolve();
  private lastSwitchAt: number | null = null;

  constructor(private readonly options: CommandRunnerOptions) {
    this.log = options.logger ?? silentLogger;
  }

  /** The gap kept between two consecutive outlet switches, ms. */
  get delaySwitchMs(): number {
    return this.delaySwitch;
  }

  async execute(command: CommandMessage): Promise<CommandAck> {
    const result = await this.run(command);
    return result.ok ? { id: command.id, ok: true } : { id: command.id, ok: false, error: result.error };
  }

  private run(command: CommandMessage): Outcome {
    const { kind, params } = command;
    switch (kind) {
      case 'miner.restart':
        return this.onMiner(command, (driver, endpoint) => driver.restart(endpoint));
      case 'miner.mode':
        return this.onMiner(command, (driver, endpoint) => {
          const p = parseCommandParams(MinerModeParamsSchema, params);
          if (!p.ok) return p;
          if (!driver.setMode) return this.unsupported(kind, driver);
          return driver.setMode(endpoint, p.value.mode);
        });
      case 'miner.pool':
        return this.onMiner(command, (driver, endpoint, miner) => {
          const p = parseCommandParams(MinerPoolParamsSchema, params);
          if (!p.ok) return p;
          return this.setPool(kind, driver, endpoint, miner, p.value);
        });
      case 'miner.resave_account':
        return this.onMiner(command, (driver, endpoint, miner) => {
          const p = parseCommandParams(MinerResaveParamsSchema, params);
          if (!p.ok) return p;
          return this.setPool(kind, driver, endpoint, miner, p.value);
        });
      case 'miner.overclock':
        return this.onMiner(command, (driver) => {
          const p = parseCommandParams(MinerOverclockParamsSchema, params);
          return p.ok ? this.unsupported(kind, driver) : p;
        });
      case 'pdu.outlet':
        return this.onOutlet(command);
      case 'fbox.config':
        return this.onConfig(command);
      case 'tank.controller_switch':
      case 'tank.oil_setting':
      case 'meter.reset':
      case 'miner.logs':
        return refused(`${kind} is not supported by the site collector`);
      default: {
        const never: never = kind;
        return refused(`${String(never)} is not supported by the site collector`);
      }
    }
  }

  private unsupported(kind: string, driver: MinerDriver): CommandResult {
    return refused(`${kind} is not supported by ${driver.name}`);
  }

  /** Finds the command's miner and runs `write` on it after earlier writes to it have finished. */
  private onMiner(
    command: CommandMessage,
    write: (driver: MinerDriver, endpoint: Endpoint, miner: KnownMiner) => Outcome,
  ): Outcome {
    const sn = command.target.sn;
    if (!sn) return refused('target.sn is required');
    const miner = this.options.miner(sn);
    if (!miner) return refused(`unknown miner sn ${sn}`);
    const driver = this.options.driver(miner);
    if (!driver) return refused(`miner ${sn}: its protocol ${miner.protocol} is not enabled`);
    if (miner.displaced)
      return refused(`miner unreachable: address of ${miner.sn} unknown since the last scan`);
    const endpoint = { host: miner.host, port: miner.port };
    return this.writes.run(endpointKey(endpoint), async () => write(driver, endpoint, miner));
  }

  /** `miner.pool` / `miner.resave_account`: the part not given is the miner's own, as last read. */
  private setPool(
    kind: string,
    driver: MinerDriver,
    endpoint: Endpoint,
    miner: KnownMiner,
    given: { pool_address?: string | undefined; worker?: string | undefined; password?: string | undefined },
  ): Outcome {
    if (!driver.setPool) return this.unsupported(kind, driver);
    const url = given.pool_address ?? miner.pool_address;
    const worker = given.worker ?? miner.worker;
    if (!url) return refused(`${kind}: no pool_address given, and none known for miner ${miner.sn}`);
    if (!worker) return refused(`${kind}: no worker given, and none known for miner ${miner.sn}`);
    return driver.setPool(endpoint, { url, worker, password: given.password || POOL_PASSWORD });
  }

  /** `pdu.outlet`: switched after the previous switch, `delay_switch_ms` after it at the earliest. */
  private onOutlet(command: CommandMessage): Outcome {
    const outlet = command.target.outlet;
    if (outlet === undefined) return refused('target.outlet is required');
    const p = parseCommandParams(PduOutletParamsSchema, command.params);
    if (!p.ok) return p;
    const switchOutlet = this.options.switchOutlet;
    if (!switchOutlet) return refused('pdu.outlet: no PDU is configured on this collector (pdus)');
    const run = async (): Promise<CommandResult> => {
      const wait = this.lastSwitchAt === null ? 0 : this.lastSwitchAt + this.delaySwitch - Date.now();
      if (wait > 0) await sleep(wait);
      try {
        return await switchOutlet(outlet, p.value.status);
      } finally {
        this.lastSwitchAt = Date.now();
      }
    };
    const next = this.switching.then(run, run);
    this.switching = next.catch(() => undefined);
    return next;
  }

  /**
   * `fbox.config`: the collector applies `reporting_interval_s` (its poll interval, 5–60 s) and
   * `delay_switch_ms`, takes the box's sensor alarm bands (see BOX_SENSOR_SETTINGS); anything else
   * it cannot apply is named in a failed ack, after the rest was applied.
   */
  private onConfig(command: CommandMessage): CommandResult {
    const p = parseCommandParams(FboxConfigParamsSchema, command.params);
    if (!p.ok) return p;
    const applied: string[] = [];
    const other: string[] = [];
    for (const [key, value] of Object.entries(p.value)) {
      if (value === undefined) continue;
      if (key === 'delay_switch_ms' && typeof value === 'number') {
        this.delaySwitch = value;
        applied.push(key);
      } else if (key === 'reporting_interval_s') {
        const { min, max } = REPORTING_INTERVAL_S;
        if (typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max) {
          this.options.setReportingInterval(value);
          applied.push(key);
        } else
          other.push(
            `reporting_interval_s ${JSON.stringify(value)} (the collector polls every ${min}–${max} s)`,
          );
      } else if (!BOX_SENSOR_SETTINGS.has(key)) other.push(`${key} (not a setting of the site collector)`);
    }
    if (applied.length) this.log.info({ applied, delay_switch_ms: this.delaySwitch }, 'box settings applied');
    if (!other.length) return { ok: true };
    const done = applied.length ? `; applied ${applied.join(', ')}` : '';
    return refused(`fbox.config: cannot apply ${other.join(', ')}${done}`);
  }
}
