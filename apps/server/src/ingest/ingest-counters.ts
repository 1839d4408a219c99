/** Ingest counters since start (served by the API as the ingest health figures). */
export interface IngestStats {
  /** Telemetry messages received. */
  messages: number;
  /** Miner samples written. */
  samples: number;
  /** Messages refused: malformed, invalid, out-of-range time, unknown device, foreign topic, bad credentials. */
  rejected: number;
  /** Telemetry messages that were already applied (redeliveries). */
  duplicates: number;
  /** Messages that could not be written and so were not acknowledged (the gateway sends them again). */
  failed: number;
  /** Batches written (that carried these messages). */
  batches: number;
  lastBatchMs: number;
  avgBatchMs: number;
}

type Count = 'messages' | 'samples' | 'rejected' | 'duplicates' | 'failed';

const round1 = (ms: number) => Math.round(ms * 10) / 10;

class Tally {
  readonly stats: IngestStats = {
    messages: 0,
    samples: 0,
    rejected: 0,
    duplicates: 0,
    failed: 0,
    batches: 0,
    lastBatchMs: 0,
    avgBatchMs: 0,
  };
  private totalBatchMs = 0;

  batch(ms: number): void {
    this.stats.batches++;
    this.stats.lastBatchMs = round1(ms);
    this.totalBatchMs += ms;
    this.stats.avgBatchMs = round1(this.totalBatchMs / this.stats.batches);
  }
}

/**
 * Ingest counters of the whole process and of each master account (by its devices), so an account
 * is shown the figures of its own devices only. What cannot be placed (a refused login, an unknown
 * device) counts for the process alone.
 */
export class IngestCounters {
  private readonly total = new Tally();
  private readonly owners = new Map<number, Tally>();

  add(key: Count, ownerId: number | undefined, n = 1): void {
    this.total.stats[key] += n;
    if (ownerId !== undefined) this.owner(ownerId).stats[key] += n;
  }

  /** One written batch, counted once for every account it carried messages of. */
  batch(ownerIds: readonly number[], ms: number): void {
    this.total.batch(ms);
    for (const id of new Set(ownerIds)) this.owner(id).batch(ms);
  }

  /** One account's figures, or the process's when no account is given. */
  read(ownerId?: number): IngestStats {
    const tally = ownerId === undefined ? this.total : this.owners.get(ownerId);
    return { ...(tally ?? new Tally()).stats };
  }

  private owner(id: number): Tally {
    let tally = this.owners.get(id);
    if (!tally) {
      tally = new Tally();
      this.owners.set(id, tally);
    }
    return tally;
  }
}
