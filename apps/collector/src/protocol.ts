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
}
