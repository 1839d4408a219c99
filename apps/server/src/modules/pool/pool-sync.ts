import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { SecretBox } from '../../lib/secret-box.js';
import {
  type PoolAdapter,
  PoolAuthError,
  PoolError,
  type PoolKind,
  PoolRateLimited,
  poolAdapterFactories,
  poolAdapters,
  poolKindOf,
} from './adapters/index.js';
import { PoolSyncRepository, type SyncTarget } from './pool-sync.repository.js';

const minute = 60_000;
const day = 24 * 60 * minute;

/** When the sync reads a pool again (docs/pools.md). */
export const poolSyncTiming = {
  /** After a success. */
  everyMs: 10 * minute,
  /** After the 1st, 2nd, 3rd, 4th+ failure in a row that may pass (timeouts, 5xx, malformed). */
  backoffMs: [1, 5, 15, 60].map((m) => m * minute),
  /** After the pool refused the credentials: a saved change makes the subaccount due at once. */
  authRetryMs: 6 * 60 * minute,
  /** A pool no adapter speaks: looked at again once a day (an adapter may have been added). */
  unsupportedRetryMs: day,
  /** How far back the first sync reads earnings. */
  firstDays: 30,
  /** Subaccounts one run reads. */
  batch: 50,
  /** How long a claim holds a subaccount for one read (its calls time out well before). */
  claimMs: 5 * minute,
} as const;

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Reads what the pools report for each mine's pool subaccounts with an API key: earnings per UTC
 * day up to yesterday (today is not settled) and the pool-side hashrate. The job `pool-sync` only
 * starts a round in the background (pool calls take seconds and must not hold the other jobs up);
 * each subaccount is claimed with a conditional update first, so with several processes one reads
 * it. Idempotent per day: a day read again replaces its row. A failure is recorded with the pool's
 * reason and retried with backoff; it never writes a zero. The last stored day is read again each
 * time, since pools may settle it late.
 */
export class PoolSync {
  private readonly repo: PoolSyncRepository;
  private readonly adapterFor: (kind: PoolKind) => PoolAdapter;
  private readonly elsewhere = new Map<PoolKind, PoolAdapter>();
  private running: Promise<number> | null = null;
  private stopped = false;

  constructor(
    private readonly deps: {
      db: Kysely<DB>;
      clock: Clock;
      secrets: SecretBox;
      log: FastifyBaseLogger;
      adapterFor?: (kind: PoolKind) => PoolAdapter;
    },
  ) {
    this.repo = new PoolSyncRepository(deps.db);
    this.adapterFor = deps.adapterFor ?? ((kind) => this.elsewhere.get(kind) ?? poolAdapters[kind]);
  }

  /**
   * Reads a pool at another address than its public one: a local pool API (the demo simulator's),
   * or a proxy the site must use.
   */
  setBaseUrl(kind: PoolKind, baseUrl: string): void {
    this.elsewhere.set(kind, poolAdapterFactories[kind]({ baseUrl }));
  }

  /** The job's step: starts a round unless one is under way in this process. */
  kick(): void {
    if (this.running || this.stopped) return;
    this.running = this.run()
      .catch((error: unknown) => {
        if (!this.stopped) this.deps.log.error({ err: error }, 'pool sync round failed');
        return 0;
      })
      .finally(() => {
        this.running = null;
      });
  }

  /** Starts no more reads; waits briefly for the one under way (a pool call may take seconds). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.running) await Promise.race([this.running, new Promise((r) => setTimeout(r, 2000).unref())]);
  }

  /** Reads the subaccounts that are due and this process claims; returns how many it read. */
  async run(): Promise<number> {
    let read = 0;
    for (const target of await this.repo.due(this.deps.clock(), poolSyncTiming.batch)) {
      if (this.stopped) break;
      const now = this.deps.clock();
      if (!(await this.repo.claim(target.id, now, now + poolSyncTiming.claimMs))) continue;
      await this.syncOne(target, now);
      read++;
    }
    return read;
  }

  /** Makes a subaccount due at once (its pool or credentials changed). */
  makeDue(subaccountId: number): Promise<void> {
    return this.repo.makeDue(subaccountId, this.deps.clock());
  }

  private async syncOne(target: SyncTarget, now: number): Promise<void> {
    const previous = await this.repo.stateOf(target.id);
    const kind = poolKindOf(target.pool);
    const base = {
      subaccount_id: target.id,
      last_attempt_at: now,
      last_success_at: previous?.last_success_at ?? null,
    };
    if (!kind) {
      await this.repo.record({
        ...base,
        status: 'unsupported',
        attempts: 0,
        last_error: null,
        next_attempt_at: now + poolSyncTiming.unsupportedRetryMs,
      });
      return;
    }
    try {
      const open = (v: string | null) => (v === null ? null : this.deps.secrets.open(v));
      const credentials = {
        subaccount: target.subaccount,
        coin: target.coin,
        apiKey: open(target.api_key),
        apiSecret: open(target.api_secret),
      };
      const adapter = this.adapterFor(kind);
      const yesterday = utcDay(now - day);
      const from =
        (await this.repo.lastEarningDay(target.id)) ?? utcDay(now - poolSyncTiming.firstDays * day);
      const earnings =
        from <= yesterday ? await adapter.dailyEarnings(credentials, { from, to: yesterday }) : [];
      const hashrate = await adapter.hashrate(credentials);
      await this.repo.store(target, earnings, hashrate, now);
      await this.repo.record({
        ...base,
        status: 'ok',
        attempts: 0,
        last_success_at: now,
        last_error: null,
        next_attempt_at: now + poolSyncTiming.everyMs,
      });
    } catch (error) {
      const attempts = (previous?.attempts ?? 0) + 1;
      if (!(error instanceof PoolError))
        this.deps.log.error({ err: error, subaccount: target.id }, 'pool sync failed');
      const reason = error instanceof PoolError ? error.message : 'unexpected error while reading the pool';
      const { backoffMs } = poolSyncTiming;
      const delay =
        error instanceof PoolRateLimited
          ? error.retryAfterSeconds * 1000
          : error instanceof PoolAuthError
            ? poolSyncTiming.authRetryMs
            : backoffMs[Math.min(attempts, backoffMs.length) - 1]!;
      await this.repo.record({
        ...base,
        status: 'failed',
        attempts,
        last_error: reason,
        next_attempt_at: now + delay,
      });
    }
  }
}
