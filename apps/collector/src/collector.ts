import { join } from 'node:path';
import type { CommandAck, CommandMessage, MinerTelemetry } from '@fbox/contracts';
import type { AntminerWebActions } from './antminer-web/actions.js';
import { CommandRunner } from './commands.js';
import { type CollectorConfig, scanTargets } from './config.js';
import { Gateway, type GatewayOptions } from './gateway.js';
import { expandRange } from './ip-range.js';
import { forEachLimited } from './limit.js';
import { type Logger, silentLogger } from './logger.js';
import { PduBank } from './pdu/bank.js';
import { outletOf } from './pdu/config.js';
import { type Endpoint, endpointKey, type Identified, type MinerProtocol } from './protocol.js';
import { antminerWebOf, driverOf, minerProtocols } from './protocols.js';
import { type KnownMiner, Registry } from './registry.js';
import { fitText, offlineTelemetry } from './telemetry.js';

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

/** One address of a scan: the ports to probe in turn, each with its protocols in turn, until one answers. */
type ScanItem = { endpoint: Endpoint; protocols: MinerProtocol[] }[];

/** The last poll of a miner. */
interface PollOutcome {
  at: number;
  ok: boolean;
  telemetry: MinerTelemetry | null;
  reason: string;
  durationMs: number;
}

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
  /** The site's switched PDUs; null when none is configured. */
  readonly pdus: PduBank | null;
  readonly commands: CommandRunner;
  private readonly antminerWeb: AntminerWebActions | null;
  private readonly config: CollectorConfig;
  /** Seconds between two polls: the config's, until the cloud's `fbox.config` sets another. */
  private pollIntervalS: number;
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
    const { cloud } = this.config;
    this.pollIntervalS = this.config.poll_interval_s;
    this.protocols = minerProtocols(this.config);
    this.antminerWeb = antminerWebOf(this.config);
    this.pdus = this.config.pdus.length ? new PduBank(this.config.pdus, { logger: this.log }) : null;
    const pdus = this.pdus;
    this.commands = new CommandRunner({
      miner: (sn) => this.registry.get(sn),
      driver: (miner) => {
        const protocol = this.protocolOf(miner);
        return protocol ? driverOf(protocol, miner, this.antminerWeb) : null;
      },
      switchOutlet: pdus && ((outlet, status) => pdus.set(outlet, status)),
      setReportingInterval: (seconds) => this.setPollInterval(seconds),
      logger: this.log,
    });
    this.gateway = new Gateway({
      brokerUrl: cloud.mqtt_url,
      deviceId: cloud.device_id,
      ...(cloud.username !== undefined && { username: cloud.username }),
      ...(cloud.password !== undefined && { password: cloud.password }),
      ...(cloud.computer_name !== undefined && { computerName: cloud.computer_name }),
      now: this.now,
      logger: this.log,
      execute: (command) => this.commands.execute(command),
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
    this.schedulePoll(this.registry.size > 0 ? 0 : this.pollIntervalS * 1000);
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

  /** The poll interval the cloud set (`fbox.config`); the next cycle waits for it. */
  private setPollInterval(seconds: number): void {
    if (seconds === this.pollIntervalS) return;
    this.log.info({ from: this.pollIntervalS, to: seconds }, 'poll interval set by the cloud');
    this.pollIntervalS = seconds;
    if (this.pollTimer && !this.polling) {
      clearTimeout(this.pollTimer);
      this.schedulePoll(seconds * 1000);
    }
  }

  get pollIntervalMs(): number {
    return this.pollIntervalS * 1000;
  }

  /**
   * What one scan probes: per host, its protocols' own ports in turn until one answers as a miner
   * (a host is one miner); a port a scan entry names is probed on its own with every protocol (a
   * router may forward several ports of one address to several miners).
   */
  private scanPlan(): ScanItem[] {
    const items: ScanItem[] = [];
    const seen = new Set<string>();
    const targets = scanTargets(this.config);
    // Named ports first: an address a scan entry names is probed there with every protocol, even
    // when another entry covers the same host on the protocols' own ports.
    for (const named of [true, false])
      for (const target of targets.filter((t) => t.named === named))
        for (const host of expandRange(target.range)) {
          const probes = target.probes
            .map((probe) => ({
              endpoint: { host, port: probe.port },
              protocols: probe.protocols.flatMap((name) => this.protocols.filter((p) => p.name === name)),
            }))
            .filter((probe) => !seen.has(endpointKey(probe.endpoint)) && probe.protocols.length > 0);
          for (const probe of probes) seen.add(endpointKey(probe.endpoint));
          if (named) items.push(...probes.map((probe) => [probe]));
          else if (probes.length) items.push(probes);
        }
    return items;
  }

  /** Probes every configured address with bounded concurrency; returns the miners found. */
  async scan(): Promise<Identified[]> {
    if (this.scanning) {
      await this.scanning;
      return [];
    }
    const run = async () => {
      const started = Date.now();
      const plan = this.scanPlan();
      const seen = new Set(plan.flatMap((item) => item.map((probe) => endpointKey(probe.endpoint))));
      const found: Identified[] = [];
      const foundSn = new Set<string>();
      let changed = false;
      await forEachLimited(plan, this.config.concurrency.scan, async (item) => {
        for (const { endpoint, protocols } of item)
          for (const protocol of protocols) {
            if (this.stopped) return;
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
      this.registry.flush();
      if (changed) this.reportSoon();
      this.log.info(
        {
          addresses: seen.size,
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
          this.schedulePoll(again ? 0 : Math.max(0, this.pollIntervalS * 1000 - spent));
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
      telemetry: fitText({
        ...reading,
        ip: endpoint.host,
        tank_no: null,
        outlet: outletOf(this.config.outlet_map, { sn: reading.sn, ip: endpoint.host }),
        online: true,
      }),
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
    this.registry.flush();
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
    return offlineTelemetry(miner, outletOf(this.config.outlet_map, { sn: miner.sn, ip: miner.host }));
  }

  /** Why a miner was last reported offline ('' when it answered). */
  offlineReason(sn: string): string | null {
    const last = this.last.get(sn);
    return last ? last.reason : null;
  }

  /** Executes one cloud command (what the gateway does with each command it receives). */
  execute(command: CommandMessage): Promise<CommandAck> {
    return this.commands.execute(command);
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
