/**
 * Braiins Pool (formerly Slush Pool), its monitoring API as documented at
 * https://academy.braiins.com/braiins-pool/monitoring and, earlier,
 * https://help.braiins.com/en/support/solutions/articles/77000433512-api-configuration-guide:
 *
 * - `GET /accounts/rewards/json/<coin>/?from=YYYY-MM-DD&to=YYYY-MM-DD` → `{ btc: { daily_rewards:
 *   [{ date, total_reward, mining_reward, bos_plus_reward, referral_bonus, referral_reward, … }] } }`
 *   (the last 90 days when no range is given; no paging is documented);
 * - `GET /accounts/profile/json/<coin>/` → `{ username, btc: { hash_rate_unit, hash_rate_5m,
 *   hash_rate_60m, hash_rate_24h, ok_workers, low_workers, off_workers, dis_workers, … } }`;
 * - the access-profile token in the `Pool-Auth-Token` header; about one request per five seconds.
 */
import {
  type DailyEarning,
  type PoolAdapter,
  type PoolAdapterOptions,
  PoolAuthError,
  type PoolCredentials,
  type PoolHashrate,
  PoolResponseError,
} from './pool-adapter.js';
import { asRecord, defaultTimeoutMs, requestJson } from './pool-http.js';
import {
  checkRange,
  isDay,
  readDecimal,
  readNumber,
  sumDecimals,
  toThs,
  utcDayOfSeconds,
} from './pool-values.js';

export const braiinsBaseUrl = 'https://pool.braiins.com';
const pool = 'Braiins Pool';
/** The documented safe rate is one request per five seconds. */
const rateLimitSeconds = 5;

const malformed = (what: string) => new PoolResponseError(`${pool}: unexpected answer (${what})`);

/** A daily reward's day: documented as a Unix time (00:00 UTC of the day); a `YYYY-MM-DD` is taken as is. */
const dayOf = (value: unknown): string | null => {
  if (typeof value === 'string' && isDay(value)) return value;
  const seconds = readNumber(value);
  return seconds === null ? null : utcDayOfSeconds(seconds);
};

/** The Braiins Pool adapter; `baseUrl` defaults to the public pool. */
export const createBraiinsAdapter = (options: PoolAdapterOptions = {}): PoolAdapter => {
  const base = (options.baseUrl ?? braiinsBaseUrl).replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;

  /** GETs `/accounts/<resource>/json/<coin>/` and returns the answer's coin section. */
  const account = async (credentials: PoolCredentials, resource: string, query?: Record<string, string>) => {
    const token = credentials.apiKey?.trim();
    if (!token) throw new PoolAuthError(`${pool}: no API token is stored for this subaccount`);
    // URLs take the coin in lower case ("btc"), and so does the answer's envelope.
    const coin = credentials.coin.trim().toLowerCase();
    const search = query ? `?${new URLSearchParams(query)}` : '';
    const body = await requestJson({
      pool,
      url: `${base}/accounts/${resource}/json/${encodeURIComponent(coin)}/${search}`,
      method: 'GET',
      // The current documentation names Pool-Auth-Token (or X-Pool-Auth-Token); the older help
      // article named SlushPool-Auth-Token. We send the current one.
      headers: { 'Pool-Auth-Token': token, Accept: 'application/json' },
      timeoutMs,
      secrets: [token],
      rateLimitSeconds,
    });
    const section = asRecord(asRecord(body)?.[coin]);
    if (!section) throw malformed(`no "${coin}" section`);
    return section;
  };

  return {
    kind: 'braiins',

    async dailyEarnings(credentials, range): Promise<DailyEarning[]> {
      checkRange(range);
      const section = await account(credentials, 'rewards', { from: range.from, to: range.to });
      const rows = section.daily_rewards;
      if (!Array.isArray(rows)) throw malformed('no daily_rewards list');
      const byDay = new Map<string, string[]>();
      for (const item of rows) {
        const row = asRecord(item);
        const day = dayOf(row?.date);
        // total_reward is the day's whole credit: mining + Braiins OS bonus + referral parts.
        const amount = readDecimal(row?.total_reward);
        if (!day || amount === null) throw malformed('a daily reward without date or total_reward');
        // The range is inclusive on both ends; anything the pool adds outside it is not asked for.
        if (day < range.from || day > range.to) continue;
        byDay.set(day, [...(byDay.get(day) ?? []), amount]);
      }
      return [...byDay.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([day, amounts]) => ({ day, amount: sumDecimals(amounts) }));
    },

    async hashrate(credentials): Promise<PoolHashrate> {
      const profile = await account(credentials, 'profile');
      const unit = profile.hash_rate_unit;
      if (typeof unit !== 'string') throw malformed('no hash_rate_unit');
      const ths = (field: string) => {
        const value = readNumber(profile[field]);
        const converted = value === null ? null : toThs(value, unit);
        if (converted === null) throw malformed(`${field} in "${unit.slice(0, 16)}"`);
        return converted;
      };
      const ok = readNumber(profile.ok_workers);
      const low = readNumber(profile.low_workers);
      return {
        realtimeThs: ths('hash_rate_5m'),
        realtimeMinutes: 5,
        hourThs: ths('hash_rate_60m'),
        dayThs: ths('hash_rate_24h'),
        // "low" workers still hash, below their monitoring limit; "off" and "dis" do not.
        activeWorkers: ok === null || low === null ? null : ok + low,
      };
    },
  };
};
