import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** Attempts allowed per window before a key is locked for `lockMs`. */
export interface LimitRule {
  maxFailures: number;
  windowMs: number;
  lockMs: number;
}

/**
 * One account from one address: the lock an attacker meets first, and only there, so the owner
 * elsewhere is not locked out by it (ASVS 2.2.1).
 */
export const pairRule: LimitRule = { maxFailures: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
/** One address across accounts (guessing many usernames). */
export const ipRule: LimitRule = { maxFailures: 20, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
/**
 * One account from every address: slower than the pair rule (100 an hour, the ASVS bound), so it
 * takes a distributed attack of several addresses to reach it, and it still bounds what they try.
 */
export const accountRule: LimitRule = { maxFailures: 100, windowMs: 60 * 60_000, lockMs: 15 * 60_000 };

/** A key with its rule, checked in the order given. */
export interface LimitKey {
  key: string;
  rule: LimitRule;
}

/**
 * Login attempt counters kept in the database (not in memory) so every server process behind a load
 * balancer enforces the same limit. An attempt is reserved before the slow password hash, by one
 * statement per key that counts and answers at once: parallel attempts cannot all read "not yet
 * locked" and then all be checked. A failed attempt keeps its reservation; a success gives it back.
 */
export class LoginLimiter {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Reserves one attempt on every key, in order. Returns 0 when all allowed it, else the
   * milliseconds until the first refusing key opens again; then nothing stays reserved, so refused
   * attempts do not count against the keys after it (an address locked out of one account does not
   * run the account's global count up).
   */
  async reserve(keys: LimitKey[], now: number): Promise<number> {
    const taken: string[] = [];
    for (const { key, rule } of keys) {
      const lockedUntil = await this.take(key, rule, now);
      if (lockedUntil > now) {
        await this.release(taken);
        return lockedUntil - now;
      }
      taken.push(key);
    }
    return 0;
  }

  /** Gives reserved attempts back (the login succeeded, or a later key refused it). */
  async release(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.db
      .updateTable('login_limits')
      .set((eb) => ({ failures: eb('failures', '-', 1) }))
      .where('key', 'in', keys)
      .where('failures', '>', 0)
      .execute();
  }

  async clear(key: string): Promise<void> {
    await this.db.deleteFrom('login_limits').where('key', '=', key).execute();
  }

  /**
   * Counts one attempt on the key and returns its `locked_until` (0 when open), in one statement:
   * a locked key stays as it is; an expired window or lock starts afresh at 1; an attempt past the
   * limit locks the key and is itself refused.
   */
  private async take(key: string, rule: LimitRule, now: number): Promise<number> {
    const windowOpen = now - rule.windowMs;
    const row = await this.db
      .insertInto('login_limits')
      .values({ key, failures: 1, window_start: now, locked_until: null })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => {
          const locked = eb('login_limits.locked_until', '>', now);
          const fresh = eb.or([
            eb('login_limits.window_start', '<=', windowOpen),
            eb('login_limits.locked_until', '<=', now),
          ]);
          const over = eb(eb('login_limits.failures', '+', 1), '>', rule.maxFailures);
          return {
            failures: eb
              .case()
              .when(locked)
              .then(eb.ref('login_limits.failures'))
              .when(fresh)
              .then(1)
              .else(eb('login_limits.failures', '+', 1))
              .end(),
            window_start: eb
              .case()
              .when(locked)
              .then(eb.ref('login_limits.window_start'))
              .when(fresh)
              .then(now)
              .else(eb.ref('login_limits.window_start'))
              .end(),
            locked_until: eb
              .case()
              .when(locked)
              .then(eb.ref('login_limits.locked_until'))
              .when(fresh)
              .then(eb.val<number | null>(null))
              .when(over)
              .then(now + rule.lockMs)
              .else(eb.val<number | null>(null))
              .end(),
          };
        }),
      )
      .returning(['locked_until'])
      .executeTakeFirstOrThrow();
    return Number(row.locked_until ?? 0);
  }
}
