import type { Clock } from '../lib/clock.js';

/** Failed MQTT logins allowed per address within the window before it is shut out for `blockMs`. */
export const mqttLoginRule = { maxFailures: 10, windowMs: 5 * 60_000, blockMs: 5 * 60_000 } as const;

/** Addresses tracked at most; beyond it the oldest are forgotten (a flood of addresses cannot grow it). */
const maxAddresses = 10_000;

interface Entry {
  failures: number;
  windowStart: number;
  blockedUntil: number;
}

/**
 * Failed broker logins per client address. Kept in memory: it guards this process's own listening
 * socket, and a connection is always to one process. An address over the limit is refused before
 * its credentials are checked, so password guessing over MQTT is as slow as over the API.
 */
export class LoginThrottle {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly clock: Clock) {}

  /** Whether `ip` may try to log in now. */
  allows(ip: string): boolean {
    const entry = this.entries.get(ip);
    return !entry || entry.blockedUntil <= this.clock();
  }

  failed(ip: string): void {
    const now = this.clock();
    let entry = this.entries.get(ip);
    if (!entry || now - entry.windowStart > mqttLoginRule.windowMs) {
      entry = { failures: 0, windowStart: now, blockedUntil: 0 };
    }
    entry.failures++;
    if (entry.failures >= mqttLoginRule.maxFailures) {
      entry.blockedUntil = now + mqttLoginRule.blockMs;
      entry.failures = 0;
      entry.windowStart = now;
    }
    this.entries.delete(ip);
    this.entries.set(ip, entry);
    if (this.entries.size > maxAddresses) this.entries.delete(this.entries.keys().next().value!);
  }
}
