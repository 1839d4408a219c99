import { join } from 'node:path';
import type { CommandAck, CommandMessage, MinerTelemetry } from '@fbox/contracts';
import { CgminerProtocol } from './cgminer/protocol.js';
import { type CollectorConfig, scanTargets } from './config.js';
import { Gateway, type GatewayOptions } from './gateway.js';
import { expandRange } from './ip-range.js';
import { forEachLimited } from './limit.js';
import { type Logger, silentLogger } from './logger.js';
import { type Endpoint, endpointKey, type Identified, type MinerProtocol } from './protocol.js';
import { NO_READING } from './reading.js';
import { type KnownMiner, Registry } from './registry.js';

export interface CollectorOptions {
  config: CollectorConfig;
  logger?: Logger;
  /** Epoch ms of telemetry (default Date.now); tests pass the server's clock. */
  now?: () => number;
  /** Keep no state file (tests). */
  noStateFile?: boolean;
  /** Extra options for the cloud connection. */
  gateway?: Partial<Pick<GatewayOptions, 'reconnectPeriodMs' | 'maxReconnectPeriodMs' | 'mqtt'>>;
}

/** The last poll of a miner. */
interface PollOutcome {
  at: number;
  ok: boolean;
  telemetry: MinerTelemetry | null;
  reason: string;
  durationMs: number;
}

/** The protocol's length limit of each text field (a longer one would get the whole message refused). */
const textLimits = {
  sn: 64,
  ip: 64,
  worker: 128,
  model: 64,
  brand: 64,
  pool: 128,
  pool_address: 256,
  firmware: 64,
  fault: 64,
} as const;

/** Cuts a miner's text fields to the protocol's limits. */
export const fitText = (miner: MinerTelemetry): MinerTelemetry => {
  const fitted = { ...miner };
  for (const [key, max] of Object.entries(textLimits) as [keyof typeof textLimits, number][])
    fitted[key] = fitted[key].slice(0, max);
  return fitted;
};

export interface CycleResult {
  polled: number;
  online: number;
  offline: number;
  durationMs: number;
  messages: number;
}

/**
 * The site collector: scans the configured ranges for miners, reads every known miner each poll
 * interval (bounded concurrency, a time-out per miner, so a dead or slow one never holds up the
 * rest), reports them to the cloud as its FBOX's gateway, and executes the cloud's commands.
 */
export class Collector {
  readonly registry: Registry;
  readonly gateway: Gateway;
  readonly protocols: MinerProtocol[];
  private readonly config: CollectorConfig;
  private readonly log: Logger;
  private readonly now: () => number;
  private readonly last = new Map<string, PollOutcome>();
  private pollTimer: NodeJS.Timeout | null = null;
  private scanTimer: NodeJS.Timeout | null = null;
  private scanning: Promise<unknown> | null = null;
  private polling: Promise<unknown> | null = null;
  private stopped = false;
  private started = false;
  private pollAgain = false;
  lastCycle: CycleResult | null = null;

  constructor(options: CollectorOptions) {
    this.config = options.config;
    this.log = options.logger ?? silentLogger;
    this.now = options.now ?? Date.now;
    this.registry = new Registry(options.noStateFile ? null : this.config.state_dir, this.log);
    const { timeouts, protocols, cloud } = this.config;
    this.protocols = protocols.cgminer.enabled
      ? [
          new CgminerProtocol({
            connectTimeoutMs: timeouts.connect_ms,
            requestTimeoutMs: timeouts.request_ms,
            defaultPort: protocols.cgminer.port,
          }),
        ]
      : [];
    this.gateway = new Gateway({
      brokerUrl: cloud.mqtt_url,
      deviceId: cloud.device_id,
      ...(cloud.username !== undefined && { username: cloud.username }),
      ...(cloud.password !== undefined && { password: cloud.password }),
      ...(cloud.computer_name !== undefined && { computerName: cloud.computer_name }),
      now: this.now,
      logger: this.log,
      execute: (command) => this.execute(command),
      // Without a state folder (tests) there is no buffer: reports are skipped while the cloud is away.
      ...(!options.noStateFile && {
        buffer: { dir: join(this.config.state_dir, 'outbox'), maxBytes: this.config.buffer.max_bytes },
      }),
      ...options.gateway,
    });
  }

  /**
   * Connects to the cloud, then polls every interval and scans every scan interval (the first scan
   * at once, in the background: a large range takes minutes).
   */
  async start(): Promise<void> {
    await this.gateway.start();
    this.started = true;
    // Miners known from the state file are read at once; those a scan finds are reported as soon as it ends.
    this.schedulePoll(this.registry.size > 0 ? 0 : this.config.poll_interval_s * 1000);
    this.runScan();
  }

  private runScan(): void {
    void this.scan()
      .catch((error: unknown) => this.log.error({ err: error }, 'scan failed'))
      .finally(() => this.scheduleScan());
  }

  /** Reports now rather than at the end of the interval (a scan found new miners). */
  private reportSoon(): void {
    if (!this.started || this.stopped) return;
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.schedulePoll(0);
  }

  private protocolOf(miner: KnownMiner): MinerProtocol | undefined {
    return this.protocols.find((p) => p.name === miner.protocol);
  }

  /** Probes every configured address with bounded concurrency; returns the miners found. */
  async scan(): Promise<Identified[]> {
    if (this.scanning) {
      await this.scanning;
      return [];
    }
    const run = async () => {
      const started = Date.now();
      const endpoints: Endpoint[] = [];
      const seen = new Set<string>();
      for (const target of scanTargets(this.config))
        for (const host of expandRange(target.range)) {
          const endpoint = { host, port: target.port };
          if (!seen.has(endpointKey(endpoint))) {
            seen.add(endpointKey(endpoint));
            endpoints.push(endpoint);
          }
        }
      const found: Identified[] = [];
      const foundSn = new Set<string>();
      let changed = false;
      await forEachLimited(endpoints, this.config.concurrency.scan, async (endpoint) => {
        if (this.stopped) return;
        for (const protocol of this.protocols) {
          const identified = await protocol.probe(endpoint, this.config.timeouts.scan_ms);
          if (!identified) continue;
          found.push(identified);
          foundSn.add(identified.reading.sn);
          if (this.registry.observe(identified, endpoint, this.now()) !== 'same') changed = true;
          this.record(identified, endpoint, Date.now() - started);
          return;
        }
      });
      if (this.stopped) return found;
      const vanished = this.registry.markVanished(seen, foundSn);
      if (changed) this.reportSoon();
      this.log.info(
        {
          addresses: endpoints.length,
          found: found.length,
          known: this.registry.size,
          vanished: vanished.length,
          ms: Date.now() - started,
        },
        'scan done',
      );
      return found;
    };
    const scanning = run();
    this.scanning = scanning;
    try {
      return await scanning;
    } finally {
      this.scanning = null;
    }
  }

  private scheduleScan(): void {
    if (this.stopped) return;
    this.scanTimer = setTimeout(() => this.runScan(), this.config.scan_interval_s * 1000);
    this.scanTimer.unref?.();
  }

  private schedulePoll(delayMs: number): void {
    if (this.stopped) return;
    this.pollTimer = setTimeout(() => {
      const started = Date.now();
      const cycle = this.pollCycle()
        .catch((error: unknown) => {
          this.log.error({ err: error }, 'poll cycle failed');
          return null;
        })
        .finally(() => {
          this.polling = null;
          const spent = Date.now() - started;
          const again = this.pollAgain;
          this.pollAgain = false;
          this.schedulePoll(again ? 0 : Math.max(0, this.config.poll_interval_s * 1000 - spent));
        });
      this.polling = cycle;
    }, delayMs);
    this.pollTimer.unref?.();
  }

  /** A successful reading, as telemetry, remembered for the next report. */
  private record(identified: Identified, endpoint: Endpoint, durationMs: number): void {
    const { fans: _fans, ...reading } = identified.reading;
    this.last.set(reading.sn, {
      at: this.now(),
      ok: true,
      reason: '',
      durationMs,
      telemetry: fitText({ ...reading, ip: endpoint.host, tank_no: null, outlet: null, online: true }),
    });
  }

  /** Reads every known miner once (bounded concurrency, a time-out each) and publishes the report. */
  async pollCycle(): Promise<CycleResult> {
    const started = Date.now();
    const miners = this.registry.all().filter((miner) => !miner.displaced);
    await forEachLimited(miners, this.config.concurrency.poll, async (miner) => {
      const protocol = this.protocolOf(miner);
      const endpoint = { host: miner.host, port: miner.port };
      const began = Date.now();
      const previous = this.last.get(miner.sn);
      if (!protocol) return;
      try {
        const identified = await protocol.poll(endpoint);
        if (identified.reading.sn !== miner.sn) {
          // Another miner answers at this address: remember it; the scan finds the old one.
          this.registry.observe(identified, endpoint, this.now());
        } else {
          this.registry.remember(miner.sn, identified.reading, this.now());
          if (miner.vanished) this.registry.observe(identified, endpoint, this.now());
        }
        if (previous && !previous.ok)
          this.log.info(
            { sn: identified.reading.sn, ip: miner.host, port: miner.port },
            'miner answers again',
          );
        this.record(identified, endpoint, Date.now() - began);
      } catch (error) {
        const reason = (error as Error).message;
        if (!previous || previous.ok || previous.reason !== reason)
          this.log.warn({ sn: miner.sn, ip: miner.host, port: miner.port, reason }, 'miner offline');
        this.last.set(miner.sn, {
          at: this.now(),
          ok: false,
          telemetry: null,
          reason,
          durationMs: Date.now() - began,
        });
      }
    });
    const report = this.registry.all().map((miner) => this.telemetryOf(miner));
    const messages = await this.gateway.report(report);
    const online = report.filter((m) => m.online).length;
    const result = {
      polled: miners.length,
      online,
      offline: report.length - online,
      durationMs: Date.now() - started,
      messages,
    };
    this.lastCycle = result;
    this.log.debug(result, 'poll cycle done');
    return result;
  }

  /** A miner's line in the report: its last reading, or offline with what is known of it. */
  private telemetryOf(miner: KnownMiner): MinerTelemetry {
    const last = this.last.get(miner.sn);
    if (last?.ok && last.telemetry && !miner.displaced) return last.telemetry;
    return fitText({
      sn: miner.sn,
      ip: miner.host,
      worker: miner.worker,
      model: miner.model,
      brand: miner.brand,
      pool: miner.pool,
      pool_address: miner.pool_address,
      firmware: miner.firmware,
      tank_no: null,
      outlet: null,
      online: false,
      mode: 'high',
      chip_avg_temp: NO_READING,
      chip_max_temp: NO_READING,
      hashrate_theoretical: NO_READING,
      hashrate_realtime: NO_READING,
      hashrate_avg: NO_READING,
      power_w: NO_READING,
      fault: '',
      uptime_s: NO_READING,
    });
  }

  /** Why a miner was last reported offline ('' when it answered). */
  offlineReason(sn: string): string | null {
    const last = this.last.get(sn);
    return last ? last.reason : null;
  }

  /** Executes one cloud command on the miner it names. */
  async execute(command: CommandMessage): Promise<CommandAck> {
    const { id } = command;
    if (command.kind !== 'miner.restart')
      return { id, ok: false, error: `${command.kind} is not supported by this collector yet` };
    const sn = command.target.sn;
    const miner = sn ? this.registry.get(sn) : undefined;
    if (!miner) return { id, ok: false, error: `unknown miner sn ${sn ?? '(none)'}` };
    const protocol = this.protocolOf(miner);
    if (!protocol || miner.displaced)
      return {
        id,
        ok: false,
        error: `miner unreachable: address of ${miner.sn} unknown since the last scan`,
      };
    const result = await protocol.restart({ host: miner.host, port: miner.port });
    return result.ok ? { id, ok: true } : { id, ok: false, error: result.error };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    if (this.scanTimer) clearTimeout(this.scanTimer);
    await Promise.allSettled([this.polling, this.scanning]);
    this.registry.save();
    await this.gateway.stop();
  }
}

/** Builds and starts a collector. */
export const startCollector = async (options: CollectorOptions): Promise<Collector> => {
  const collector = new Collector(options);
  try {
    await collector.start();
  } catch (error) {
    await collector.stop();
    throw error;
  }
  return collector;
};
