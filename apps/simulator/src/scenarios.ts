import type { Gateway } from './gateway.js';
import type { Logger } from './logger.js';
import { FAULT_NAMES, type FaultInfo, type FaultName, faultFits } from './model/faults.js';
import { Rng } from './model/random.js';
import type { SimulatorFaultRequest } from './simulator.js';

export interface ScenarioOptions {
  /** Time from one scenario fault to the next, ms (default 3 min). */
  everyMs?: number;
  /** Time to the first one, ms (default 30 s): a new demo shows an alert within minutes. */
  firstMs?: number;
}

/**
 * The demo's own faults: every `everyMs` the next fault of `FAULT_NAMES` (in turn) is injected into
 * one box it fits, on a tank, fan, phase or miner picked by the seed, for its default duration; it
 * recovers by itself. The sequence (fault, box, target) depends only on the seed and the boxes.
 */
export class FaultScenarios {
  private n = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: {
      seed: number;
      gateways: () => ReadonlyArray<Gateway>;
      inject: (request: SimulatorFaultRequest) => FaultInfo;
      now: () => number;
      log: Logger;
    },
    private readonly options: ScenarioOptions = {},
  ) {}

  /** Injects the next scenario fault now; null when no box fits any fault. */
  next(): FaultInfo | null {
    for (let tries = 0; tries < FAULT_NAMES.length; tries++) {
      const n = this.n++;
      const name = FAULT_NAMES[n % FAULT_NAMES.length]!;
      const request = this.pick(name, Rng.derive(this.deps.seed, 'scenario', n));
      if (!request) continue;
      const fault = this.deps.inject(request);
      this.deps.log.info({ ...fault }, 'scenario fault injected');
      return fault;
    }
    return null;
  }

  private pick(name: FaultName, rng: Rng): SimulatorFaultRequest | null {
    let boxes = this.deps.gateways().filter((g) => faultFits(g.model, name));
    // A stopped water pump is the hydro fault; a stopped oil pump cooks a tank's miners in minutes.
    if (name === 'pump_fault' && boxes.some((g) => g.model.hydro)) boxes = boxes.filter((g) => g.model.hydro);
    if (boxes.length === 0) return null;
    const { model } = rng.pick(boxes);
    const request: SimulatorFaultRequest = { name, fbox: model.deviceId };
    if (model.tanks.length > 0) request.tank = rng.int(1, model.tanks.length);
    if (name === 'fan_fail') request.fan = rng.int(1, model.tanks[0]!.fans.length);
    if (name === 'voltage_sag') request.phase = rng.int(1, 3);
    if (name === 'hashrate_drop' || name === 'miner_fault' || name === 'pool_hijack') {
      const now = this.deps.now();
      const running = model.miners.filter((m) => m.isOnline(now) && !m.fault);
      request.miner = rng.pick(running.length > 0 ? running : model.miners).sn;
    }
    return request;
  }

  start(): void {
    const every = this.options.everyMs ?? 3 * 60_000;
    const tick = (delay: number) => {
      this.timer = setTimeout(() => {
        try {
          this.next();
        } catch (error) {
          this.deps.log.warn({ err: error }, 'scenario fault failed');
        }
        tick(every);
      }, delay);
      this.timer.unref?.();
    };
    tick(this.options.firstMs ?? 30_000);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
