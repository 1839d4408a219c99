import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from './logger.js';
import { type Endpoint, endpointKey, type Identified } from './protocol.js';
import type { MinerReading } from './reading.js';

/** What the collector remembers of a miner between runs (`<state_dir>/miners.json`). */
export interface KnownMiner {
  sn: string;
  host: string;
  port: number;
  protocol: string;
  family: string;
  /** Last known identity and pool, so an offline miner is still reported with them. */
  brand: string;
  model: string;
  firmware: string;
  worker: string;
  pool: string;
  pool_address: string;
  firstSeen: number;
  /** Last time it answered (scan or poll), epoch ms. */
  lastSeen: number;
  /** A scan did not find it at its address (logged once, until it answers again). */
  vanished: boolean;
  /** Its address now answers as another miner: not polled there until a scan finds it. */
  displaced: boolean;
}

interface StateFile {
  version: 1;
  miners: KnownMiner[];
}

/** How long a change waits for others before the state file is written (a scan finds thousands at once). */
export const SAVE_DELAY_MS = 2000;

/**
 * The miners found so far, by serial. A change that matters (new, moved, back, vanished) marks the
 * state file for writing; it is written once per scan and poll cycle (`flush`), or `SAVE_DELAY_MS`
 * after the first change that no flush followed, never once per miner.
 */
export class Registry {
  private readonly miners = new Map<string, KnownMiner>();
  private readonly file: string | null;
  private saveTimer: NodeJS.Timeout | null = null;
  /** State file writes since start. */
  saves = 0;

  constructor(
    stateDir: string | null,
    private readonly log: Logger,
  ) {
    this.file = stateDir ? join(stateDir, 'miners.json') : null;
    if (!this.file) return;
    mkdirSync(stateDir!, { recursive: true });
    try {
      const state = JSON.parse(readFileSync(this.file, 'utf8')) as StateFile;
      for (const miner of state.miners ?? []) this.miners.set(miner.sn, miner);
      this.log.info({ file: this.file, miners: this.miners.size }, 'known miners loaded');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        this.log.warn(
          { file: this.file, err: error },
          'state file unreadable: starting with no known miners',
        );
    }
  }

  all(): KnownMiner[] {
    return [...this.miners.values()];
  }

  get(sn: string): KnownMiner | undefined {
    return this.miners.get(sn);
  }

  get size(): number {
    return this.miners.size;
  }

  /**
   * A miner answered at `endpoint` (scan or poll): remember it, and log it when it is new, moved
   * (same serial, another address) or back after vanishing. Another miner remembered at the same
   * address is displaced. Returns what happened.
   */
  observe(found: Identified, endpoint: Endpoint, now: number): 'new' | 'moved' | 'back' | 'same' {
    const { reading } = found;
    const known = this.miners.get(reading.sn);
    const meta = {
      protocol: found.protocol,
      family: found.family,
      brand: reading.brand,
      model: reading.model,
      firmware: reading.firmware,
      worker: reading.worker,
      pool: reading.pool,
      pool_address: reading.pool_address,
    };
    let outcome: 'new' | 'moved' | 'back' | 'same' = 'same';
    if (!known) {
      outcome = 'new';
      this.miners.set(reading.sn, {
        sn: reading.sn,
        host: endpoint.host,
        port: endpoint.port,
        ...meta,
        firstSeen: now,
        lastSeen: now,
        vanished: false,
        displaced: false,
      });
      this.log.info(
        {
          sn: reading.sn,
          ip: endpoint.host,
          port: endpoint.port,
          brand: reading.brand,
          model: reading.model,
        },
        'miner new',
      );
    } else {
      if (known.host !== endpoint.host || known.port !== endpoint.port) {
        outcome = 'moved';
        this.log.info(
          { sn: reading.sn, from: `${known.host}:${known.port}`, to: endpointKey(endpoint) },
          'miner moved',
        );
      } else if (known.vanished || known.displaced) {
        outcome = 'back';
        this.log.info({ sn: reading.sn, ip: endpoint.host, port: endpoint.port }, 'miner back');
      }
      Object.assign(known, meta, {
        host: endpoint.host,
        port: endpoint.port,
        lastSeen: now,
        vanished: false,
        displaced: false,
      });
    }
    for (const other of this.miners.values()) {
      if (other.sn === reading.sn || other.displaced) continue;
      if (other.host === endpoint.host && other.port === endpoint.port) {
        other.displaced = true;
        this.log.info(
          { sn: other.sn, ip: endpoint.host, port: endpoint.port, now_answering: reading.sn },
          'miner vanished: its address answers as another miner',
        );
      }
    }
    if (outcome !== 'same') this.saveSoon();
    return outcome;
  }

  /** After a scan: miners it covered but did not find are vanished (logged once). */
  markVanished(scanned: Set<string>, found: Set<string>): string[] {
    const vanished: string[] = [];
    for (const miner of this.miners.values()) {
      if (miner.vanished || found.has(miner.sn)) continue;
      if (!scanned.has(`${miner.host}:${miner.port}`) && !miner.displaced) continue;
      miner.vanished = true;
      if (miner.displaced) continue; // logged when its address answered as another miner
      vanished.push(miner.sn);
      this.log.info(
        { sn: miner.sn, ip: miner.host, port: miner.port, last_seen: new Date(miner.lastSeen).toISOString() },
        'miner vanished',
      );
    }
    if (vanished.length) this.saveSoon();
    return vanished;
  }

  /** Keeps a poll's identity and pool for the offline reports to come (saved with the next change). */
  remember(sn: string, reading: MinerReading, now: number): void {
    const known = this.miners.get(sn);
    if (!known) return;
    Object.assign(known, {
      brand: reading.brand,
      model: reading.model,
      firmware: reading.firmware,
      worker: reading.worker,
      pool: reading.pool,
      pool_address: reading.pool_address,
      lastSeen: now,
    });
  }

  /** Marks the state file for writing: written by the next `flush`, at the latest `SAVE_DELAY_MS` from now. */
  private saveSoon(): void {
    if (!this.file || this.saveTimer) return;
    this.saveTimer = setTimeout(() => this.save(), SAVE_DELAY_MS);
    this.saveTimer.unref?.();
  }

  /** Writes the state file now if a change waits for it. */
  flush(): void {
    if (this.saveTimer) this.save();
  }

  /** Writes the state file now. */
  save(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    if (!this.file) return;
    this.saves++;
    const state: StateFile = { version: 1, miners: this.all() };
    const temp = `${this.file}.tmp`;
    try {
      writeFileSync(temp, `${JSON.stringify(state, null, 1)}\n`);
      renameSync(temp, this.file);
    } catch (error) {
      this.log.warn({ file: this.file, err: error }, 'state file not saved');
    }
  }
}
