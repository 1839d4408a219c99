import type { MinerReading } from './reading.js';

/** Where a miner's API answers. */
export interface Endpoint {
  host: string;
  port: number;
}

export const endpointKey = (endpoint: Endpoint): string => `${endpoint.host}:${endpoint.port}`;

export interface Identified {
  /** Protocol that answered (`cgminer` …). */
  protocol: string;
  /** e.g. `antminer`, `avalon`: what the protocol told apart. */
  family: string;
  reading: MinerReading;
}

export type CommandResult = { ok: true } | { ok: false; error: string };

/** A pool as a miner is told to use it (`miner.pool`, `miner.resave_account`). */
export interface PoolSetting {
  /** `stratum+tcp://host:port`. */
  url: string;
  worker: string;
  /** Pool password; miners commonly take `x` when the pool ignores it. */
  password: string;
}

/**
 * One way of talking to miners. To add a protocol (Whatsminer, a web API …) implement this and
 * list it in `collector.ts`; scanning tries each enabled protocol's `probe` on each address until
 * one answers.
 */
export interface MinerProtocol {
  readonly name: string;
  /** Default port probed on scanned addresses. */
  readonly defaultPort: number;
  /** Does a miner of this protocol answer here? Its first reading, or null when nothing (or something else) answers. */
  probe(endpoint: Endpoint, timeoutMs: number): Promise<Identified | null>;
  /** Reads the miner; throws an `Error` whose message says why it could not. */
  poll(endpoint: Endpoint): Promise<Identified>;
  /** Restarts the mining program; `error` is the device's own text when it refuses. */
  restart(endpoint: Endpoint): Promise<CommandResult>;
  // Optional write commands: a protocol that cannot do one leaves it out, and the collector answers
  // the cloud's command with "not supported by <protocol>". Each resolves once the device answered.
  /** Reboots the whole device (not only the mining program). */
  reboot?(endpoint: Endpoint): Promise<CommandResult>;
  /** Power mode: `high` = the miner's normal mode, `low` = its low-power mode. */
  setMode?(endpoint: Endpoint, mode: 'high' | 'low'): Promise<CommandResult>;
  /** Makes `pool` the miner's first (active) pool. */
  setPool?(endpoint: Endpoint, pool: PoolSetting): Promise<CommandResult>;
}
