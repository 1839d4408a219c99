import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** Failures allowed per window before a key is locked for `lockMs`. */
export interface LimitRule {
  maxFailures: number;
  windowMs: number;
  lockMs: number;
}

export const accountRule: LimitRule = { maxFailures: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
export const ipRule: LimitRule = { maxFailures: 20, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };

/**
 * Login failure counters kept in the database (not in memory) so every server process behind a load
 * balancer enforces the same limit.
 */
export class LoginLimiter {
  constructor(private readonly db: Kysely<DB>) {}

  /** Milliseconds until the key may try again, or 0 when it is not locked. */
  async lockedFor(keys: string[], now: number): Promise<number> {
    const rows = await this.db
      .selectFrom('login_limits')
      .select('locked_until')
      .where('key', 'in', keys)
      .where('locked_until', '>', now)
      .execute();
    return Math.max(0, ...rows.map((r) => (r.locked_until ?? 0) - now));
  }

  /** Counts one failure; locks the key when it reaches its limit within the window. */
  async recordFailure(key: string, rule: LimitRule, now: number): Promise<void> {
    const windowOpen = now - rule.windowMs;
    const row = await this.db
      .insertInto('login_limits')
      .values({ key, failures: 1, window_start: now, locked_until: null })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({
          failures: eb
            .case()
            .when('login_limits.window_start', '<=', windowOpen)
            .then(1)
            .else(eb('login_limits.failures', '+', 1))
            .end(),
          window_start: eb
            .case()
            .when('login_limits.window_start', '<=', windowOpen)
            .then(now)
            .else(eb.ref('login_limits.window_start'))
            .end(),
        })),
      )
      .returning(['failures'])
      .executeTakeFirstOrThrow();
    if (row.failures >= rule.maxFailures) {
      await this.db
        .updateTable('login_limits')
        .set({ locked_until: now + rule.lockMs, failures: 0, window_start: now })
        .where('key', '=', key)
        .execute();
    }
  }

  async clear(key: string): Promise<void> {
    await this.db.deleteFrom('login_limits').where('key', '=', key).execute();
  }
}
