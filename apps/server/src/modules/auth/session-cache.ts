/**
 * Sessions resolved by recent requests, kept for `ttlMs` so a console that keeps asking does not
 * look its session up on every call: that lookup was a second database round trip of each list
 * page (about a tenth of its CPU on PostgreSQL, server and driver together).
 *
 * What keeps it right:
 * - anything that may change a session, its user, role, rules or mines clears the whole cache at
 *   once (`clear`): every state-changing API call does, in this process and, on PostgreSQL, in every
 *   process through a notification (see `auth.plugin.ts`); changes are rare, so a clear costs little;
 * - a lookup that was under way while a clear happened is not kept (`generation`), so an answer read
 *   before a change cannot outlive it;
 * - an entry is used only while its session has not expired, and for `ttlMs` at most: a bound for
 *   anything else, such as a notification missed before the listener knew it was cut off;
 * - while it cannot hear other processes (`enabled` false), it keeps nothing.
 * Unknown or refused tokens are never kept.
 */
export class SessionCache<T extends { expires_at: number }> {
  private readonly entries = new Map<string, { value: T; at: number }>();
  private generationValue = 0;
  private enabledValue: boolean;

  constructor(
    private readonly ttlMs: number,
    enabled: boolean,
    private readonly maxEntries = 10_000,
  ) {
    this.enabledValue = enabled;
  }

  /** Changes with every clear: read it before a lookup and hand it to `set`. */
  get generation(): number {
    return this.generationValue;
  }

  get enabled(): boolean {
    return this.enabledValue;
  }

  /** Turns keeping on or off; either way what is kept is forgotten. */
  set enabled(on: boolean) {
    this.enabledValue = on;
    this.clear();
  }

  get(key: string, now: number): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now - entry.at >= this.ttlMs || now < entry.at || entry.value.expires_at <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Keeps `value` unless the cache was cleared since `generation` was read, or is off. */
  set(key: string, value: T, now: number, generation: number): void {
    if (!this.enabledValue || generation !== this.generationValue) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value, at: now });
  }

  clear(): void {
    this.generationValue++;
    this.entries.clear();
  }
}
