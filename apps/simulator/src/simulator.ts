import type { IClientOptions } from 'mqtt';
import { defaultControlPath, startControlServer } from './control.js';
import { Gateway, type GatewayStats } from './gateway.js';
import { type Logger, silentLogger } from './logger.js';
import { type Clock, systemClock } from './model/clock.js';
import {
  activeFaults,
  clearFaults,
  FaultError,
  type FaultInfo,
  type FaultName,
  type FaultRequest,
  faultFits,
  injectFault,
} from './model/faults.js';
import type { FboxSpec } from './model/fbox.js';
import { FaultScenarios, type ScenarioOptions } from './scenarios.js';

/** One FBOX to simulate: its layout plus its MQTT account and per-gateway overrides. */
export interface SimulatorGatewaySpec extends FboxSpec {
  username?: string;
  password?: string;
  /** Overrides the simulator-wide interval for this gateway, ms. */
  intervalMs?: number;
  /** Receive commands but never execute nor acknowledge them. */
  ignoreCommands?: boolean;
  seqStart?: number;
}

export interface SimulatorOptions {
  brokerUrl: string;
  gateways: SimulatorGatewaySpec[];
  /** Telemetry period, ms (default 30 000). */
  intervalMs?: number;
  /** Seed of all the randomness (default 1). Identity (SNs, IPs, models) depends on device ids only. */
  seed?: number;
  /**
   * Fault events: `rate` is the probability per miner (and tank, box) per report, 0–1 (default 0:
   * none). `scenarios`: named faults injected in turn (see `FaultScenarios`), on by default when
   * `rate` > 0 (the demo), off otherwise (tests); `true` or timings turn them on, `false` off.
   */
  faults?: { rate: number; scenarios?: boolean | ScenarioOptions };
  /**
   * Unix socket of the fault control API (`control.ts`; the CLI's `fault` command talks to it).
   * Default: one per broker address in the temp directory; false: none.
   */
  control?: string | false;
  /** Miner reboot time, ms (default 60 000). */
  restartMs?: number;
  /** Miner boot-to-full-hashrate time, ms (default 120 000). */
  rampMs?: number;
  clock?: Clock;
  logger?: Logger;
  /** First-connection time-out per gateway, ms (default 15 000). */
  connectTimeoutMs?: number;
  /** After an executed command, report within this many ms (default 1000; 0: off). */
  reportAfterCommandMs?: number;
  /** Extra mqtt.js options for every gateway. */
  mqtt?: Partial<IClientOptions>;
}

export interface SimulatorStats {
  gateways: number;
  connected: number;
  miners: number;
  telemetrySent: number;
  commandsReceived: number;
  commandsOk: number;
  commandsFailed: number;
  perGateway: GatewayStats[];
}

/** A fault for the simulator: which FBOX (device id; default the box of `miner`, else the first it fits). */
export interface SimulatorFaultRequest extends FaultRequest {
  fbox?: string;
}

export interface Simulator {
  readonly gateways: ReadonlyArray<Gateway>;
  /**
   * Injects a named fault; it shows in the box's next reports and ends after its duration or on
   * `clearFault`. Throws `FaultError` when it fits no box (no tanks, no water loop, unknown SN …).
   */
  injectFault(request: SimulatorFaultRequest): FaultInfo;
  /** Ends the injected faults matching (every one when nothing is given); returns them. */
  clearFault(match?: { name?: FaultName; fbox?: string }): FaultInfo[];
  /** The injected faults running now. */
  faults(): FaultInfo[];
  /** The fault control socket's path, or null when none is open. */
  readonly controlPath: string | null;
  gateway(deviceId: string): Gateway | undefined;
  /** Start one more gateway (e.g. an FBOX created while running). */
  add(spec: SimulatorGatewaySpec): Promise<Gateway>;
  /** Stop and forget a gateway (publishes its `offline`). False when unknown. */
  remove(deviceId: string): Promise<boolean>;
  stats(): SimulatorStats;
  /** Stop every gateway: each publishes `offline` and disconnects cleanly. */
  stop(): Promise<void>;
}

const validateFaultRate = (rate: number): number => {
  if (!Number.isFinite(rate) || rate < 0 || rate > 1) throw new Error('faults.rate must be between 0 and 1');
  return rate;
};

/**
 * Start one gateway per FBOX against `brokerUrl`. Resolves once every gateway is connected; if one
 * cannot connect (refused account, no broker within the time-out) the others are stopped and the
 * promise rejects.
 */
export const startSimulator = async (options: SimulatorOptions): Promise<Simulator> => {
  const log = options.logger ?? silentLogger;
  const clock = options.clock ?? systemClock;
  const faultRate = validateFaultRate(options.faults?.rate ?? 0);
  const gateways = new Map<string, Gateway>();
  let boxNo = 0;
  let stopped = false;

  const create = (spec: SimulatorGatewaySpec): Gateway => {
    if (gateways.has(spec.deviceId)) throw new Error(`duplicate deviceId ${spec.deviceId}`);
    boxNo++;
    const { username, password, intervalMs, ignoreCommands, seqStart, ...layout } = spec;
    const gateway = new Gateway({
      brokerUrl: options.brokerUrl,
      spec: { boxNo, ...layout },
      ...(username !== undefined ? { username } : {}),
      ...(password !== undefined ? { password } : {}),
      intervalMs: intervalMs ?? options.intervalMs ?? 30_000,
      ...(seqStart !== undefined ? { seqStart } : {}),
      model: {
        seed: options.seed ?? 1,
        faultRate,
        ...(options.restartMs !== undefined ? { restartMs: options.restartMs } : {}),
        ...(options.rampMs !== undefined ? { rampMs: options.rampMs } : {}),
      },
      clock,
      logger: log,
      ignoreCommands: ignoreCommands ?? false,
      ...(options.reportAfterCommandMs !== undefined
        ? { reportAfterCommandMs: options.reportAfterCommandMs }
        : {}),
      ...(options.connectTimeoutMs !== undefined ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
      ...(options.mqtt ? { mqtt: options.mqtt } : {}),
    });
    gateways.set(spec.deviceId, gateway);
    return gateway;
  };

  // Build every model first: a bad spec fails before anything connects.
  const created = options.gateways.map(create);
  const results = await Promise.allSettled(created.map((g) => g.start()));
  const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failures.length > 0) {
    await Promise.allSettled(created.map((g) => g.stop()));
    const reasons = failures.map((f) => (f.reason as Error).message);
    throw new Error(`simulator: ${failures.length} gateway(s) failed to start: ${reasons.join('; ')}`);
  }
  log.info(
    {
      broker: options.brokerUrl,
      gateways: created.length,
      miners: created.reduce((s, g) => s + g.model.miners.length, 0),
    },
    'simulator started',
  );

  const boxFor = (request: SimulatorFaultRequest): Gateway => {
    if (request.fbox !== undefined) {
      const gateway = gateways.get(request.fbox);
      if (!gateway) throw new FaultError(`no FBOX ${request.fbox} in this simulator`);
      return gateway;
    }
    const all = [...gateways.values()];
    const found =
      request.miner !== undefined
        ? all.find((g) => g.model.miner(request.miner!))
        : all.find((g) => faultFits(g.model, request.name));
    if (!found)
      throw new FaultError(
        request.miner !== undefined ? `no miner ${request.miner}` : `no FBOX fits ${request.name}`,
      );
    return found;
  };
  const injectFaultNow = ({ fbox: _, ...request }: SimulatorFaultRequest, gateway: Gateway): FaultInfo => {
    const fault = injectFault(gateway.model, request, clock.now());
    log.info({ ...fault }, 'fault injected');
    return fault;
  };

  const simulator: Simulator = {
    get gateways() {
      return [...gateways.values()];
    },
    injectFault: (request) => injectFaultNow(request, boxFor(request)),
    clearFault: (match = {}) => {
      const boxes = match.fbox === undefined ? [...gateways.values()] : [gateways.get(match.fbox)];
      return boxes.flatMap((g) => (g ? clearFaults(g.model, match.name) : []));
    },
    faults: () => [...gateways.values()].flatMap((g) => activeFaults(g.model)),
    get controlPath() {
      return control?.path ?? null;
    },
    gateway: (deviceId) => gateways.get(deviceId),
    add: async (spec) => {
      if (stopped) throw new Error('simulator is stopped');
      const gateway = create(spec);
      try {
        await gateway.start();
      } catch (error) {
        gateways.delete(spec.deviceId);
        throw error;
      }
      return gateway;
    },
    remove: async (deviceId) => {
      const gateway = gateways.get(deviceId);
      if (!gateway) return false;
      gateways.delete(deviceId);
      await gateway.stop();
      return true;
    },
    stats: () => {
      const perGateway = [...gateways.values()].map((g) => g.stats());
      const sum = (key: 'telemetrySent' | 'commandsReceived' | 'commandsOk' | 'commandsFailed'): number =>
        perGateway.reduce((s, g) => s + g[key], 0);
      return {
        gateways: perGateway.length,
        connected: perGateway.filter((g) => g.connected).length,
        miners: [...gateways.values()].reduce((s, g) => s + g.model.miners.length, 0),
        telemetrySent: sum('telemetrySent'),
        commandsReceived: sum('commandsReceived'),
        commandsOk: sum('commandsOk'),
        commandsFailed: sum('commandsFailed'),
        perGateway,
      };
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      scenarios?.stop();
      await control?.close();
      await Promise.allSettled([...gateways.values()].map((g) => g.stop()));
      log.info({ gateways: gateways.size }, 'simulator stopped');
    },
  };
  const scenarioOption = options.faults?.scenarios ?? faultRate > 0;
  const scenarios = scenarioOption
    ? new FaultScenarios(
        {
          seed: options.seed ?? 1,
          gateways: () => simulator.gateways,
          inject: (request) => simulator.injectFault(request),
          now: () => clock.now(),
          log,
        },
        typeof scenarioOption === 'object' ? scenarioOption : {},
      )
    : null;
  scenarios?.start();
  const controlPath = options.control ?? defaultControlPath(options.brokerUrl);
  const control = controlPath === false ? null : await startControlServer(simulator, controlPath, log);
  return simulator;
};
