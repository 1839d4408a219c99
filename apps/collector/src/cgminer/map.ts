import { type MinerReading, noFigures, reading } from '../reading.js';
import { type Identity, identify } from './identify.js';
import {
  type ApiObject,
  hashrateOf,
  num,
  numberList,
  parseBracketFields,
  section,
  toTeraHash,
} from './parse.js';

/** The replies of one poll, by command (absent: not asked, or refused). */
export type Replies = Partial<Record<string, ApiObject>>;

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');
const max = (values: number[]) => (values.length ? Math.max(...values) : null);
const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : null);
const sum = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) : null);

/** The values of `<prefix><n>` keys (`fan1`, `fan2` …, `chain_rate1` …) by their number. */
const numbered = (object: ApiObject, prefix: string): Map<number, unknown> => {
  const out = new Map<number, unknown>();
  const pattern = new RegExp(`^${prefix}(\\d+)$`);
  for (const [key, value] of Object.entries(object)) {
    const match = pattern.exec(key);
    if (match) out.set(Number(match[1]), value);
  }
  return out;
};

/** The device part of `stats`: its elements merged, pool statistics (`ID: POOL0` …) left out. */
const deviceStats = (stats: ApiObject | undefined): ApiObject =>
  Object.assign(
    {},
    ...section(stats, 'STATS').filter((element) => !/^POOL\d/.test(text(element.ID))),
  ) as ApiObject;

/** The pool the miner works for: the one with an active stratum, else the alive one of first priority. */
export const activePool = (pools: ApiObject | undefined): { url: string; user: string } | null => {
  const list = section(pools, 'POOLS');
  if (!list.length) return null;
  const priority = (pool: ApiObject) => num(pool.Priority) ?? num(pool.POOL) ?? 0;
  const chosen =
    list.find((pool) => pool['Stratum Active'] === true) ??
    [...list]
      .filter((pool) => /alive/i.test(text(pool.Status)))
      .sort((a, b) => priority(a) - priority(b))[0] ??
    list[0]!;
  return { url: text(chosen.URL) || text(chosen['Stratum URL']), user: text(chosen.User) };
};

/** `stratum+tcp://btc.viabtc.io:3333` → `btc.viabtc.io`. */
export const poolHost = (url: string): string => {
  const match = /^(?:[a-z0-9+.-]+:\/\/)?([^/:?#@]+@)?([^/:?#]+)/i.exec(url.trim());
  return match?.[2] ?? url;
};

/** Chip temperatures of an Antminer: `temp_chipN` (`"47-47-62-62"` on S19 and later, or one number), else `temp2_N` (S9). */
const antminerChipTemps = (stats: ApiObject): number[] => {
  let values = [...numbered(stats, 'temp_chip').values()].flatMap(numberList);
  if (!values.length) values = [...numbered(stats, 'temp2_').values()].flatMap(numberList);
  return values.filter((t) => t > 0 && t < 200);
};

const antminerFault = (stats: ApiObject, uptime: number | null): string => {
  const chips = numbered(stats, 'chain_acn');
  const rates = numbered(stats, 'chain_rate');
  const states = numbered(stats, 'chain_acs');
  const chainNumbers = new Set([...chips.keys(), ...rates.keys()]);
  const expected = num(stats.miner_count);
  let dead = false;
  for (const n of chainNumbers) {
    const acn = num(chips.get(n));
    const rate = num(rates.get(n));
    const acs = text(states.get(n));
    // An empty slot (S9 lists 16, with no rate): not a chain.
    if (rate === null && (acn ?? 0) === 0) continue;
    // A chain that reports no chips, hashes nothing after warm-up (10 min), or marks a chip failed ('x').
    if (acn === 0 || acs.includes('x') || (rate === 0 && (uptime ?? 0) > 600)) dead = true;
  }
  if (expected !== null && chainNumbers.size > 0) {
    const present = [...chips.values()].filter((acn) => (num(acn) ?? 0) > 0).length;
    if (present < expected) dead = true;
  }
  if (dead) return 'chain';
  const fans = [...numbered(stats, 'fan').values()].map((v) => num(v) ?? 0);
  const fanNum = num(stats.fan_num);
  const spinning = fans.filter((rpm) => rpm > 0).length;
  if (fanNum !== null ? spinning < fanNum : fans.some((rpm) => rpm === 0) && spinning > 0) return 'fan';
  return '';
};

const antminer = (id: Identity, replies: Replies, base: Partial<MinerReading>): Partial<MinerReading> => {
  const stats = deviceStats(replies.stats);
  const summary = section(replies.summary, 'SUMMARY')[0];
  const uptime = num(summary?.Elapsed) ?? num(stats.Elapsed);
  const ideal = num(stats.total_rateideal);
  const temps = antminerChipTemps(stats);
  const power =
    num(stats.Power) ??
    num(stats.power) ??
    sum([...numbered(stats, 'chain_power').values()].flatMap(numberList));
  return {
    ...base,
    sn: text(stats.miner_id),
    hashrate_realtime: reading(hashrateOf(summary, '5s') ?? hashrateOf(stats, '5s')),
    hashrate_avg: reading(hashrateOf(summary, 'av') ?? hashrateOf(stats, 'av')),
    hashrate_theoretical: reading(ideal === null ? null : toTeraHash(ideal, text(stats.rate_unit) || 'GH')),
    chip_max_temp: reading(max(temps), 1),
    chip_avg_temp: reading(mean(temps), 1),
    power_w: reading(power, 0),
    uptime_s: reading(uptime, 0),
    fans: [...numbered(stats, 'fan').values()].map((v) => num(v) ?? 0),
    fault: antminerFault(stats, uptime),
    firmware: id.firmware,
  };
};

/** Avalon's `MM ID<n>` modules (one per module on multi-module models), each parsed. */
const avalonModules = (stats: ApiObject): Record<string, string>[] =>
  Object.entries(stats)
    .filter(([key, value]) => /^MM ID\d+/.test(key) && typeof value === 'string')
    .map(([, value]) => parseBracketFields(value as string));

const avalon = (id: Identity, replies: Replies, base: Partial<MinerReading>): Partial<MinerReading> => {
  const modules = avalonModules(deviceStats(replies.stats));
  const summary = section(replies.summary, 'SUMMARY')[0];
  const version = section(replies.version, 'VERSION')[0] ?? {};
  const field = (name: string) => modules.map((m) => num(m[name])).filter((v): v is number => v !== null);
  const fans = modules.flatMap((m) =>
    Object.entries(m)
      .filter(([key]) => /^Fan\d+$/.test(key))
      .map(([, value]) => num(value) ?? 0),
  );
  // PS[err vcore vout iout … power]: the 7th value is the power supply's output in W.
  const power = sum(
    modules.map((m) => numberList(m.PS ?? '')[6]).filter((v): v is number => v !== undefined),
  );
  const chainErrors = modules.some((m) => numberList(m.ECHU ?? '').some((code) => code !== 0));
  const workmode = max(field('WORKMODE'));
  const uptime = num(summary?.Elapsed) ?? max(field('Elapsed'));
  const ghsSpeed = sum(field('GHSspd'));
  const ghsAvg = sum(field('GHSavg'));
  const ghsIdeal = sum(field('GHSmm'));
  return {
    ...base,
    sn: text(version.DNA) || modules.map((m) => m.DNA ?? '').find(Boolean) || text(version.MAC),
    hashrate_realtime: reading(hashrateOf(summary, '5s') ?? (ghsSpeed === null ? null : ghsSpeed / 1000)),
    hashrate_avg: reading(hashrateOf(summary, 'av') ?? (ghsAvg === null ? null : ghsAvg / 1000)),
    hashrate_theoretical: reading(ghsIdeal === null ? null : ghsIdeal / 1000),
    chip_max_temp: reading(max(field('TMax')), 1),
    chip_avg_temp: reading(mean(field('TAvg')), 1),
    power_w: reading(power, 0),
    uptime_s: reading(uptime, 0),
    fans,
    fault: chainErrors ? 'chain' : fans.some((rpm) => rpm === 0) ? 'fan' : '',
    mode: workmode === 0 ? 'low' : 'high',
    firmware: id.firmware || (modules[0]?.Ver ?? ''),
  };
};

const braiins = (id: Identity, replies: Replies, base: Partial<MinerReading>): Partial<MinerReading> => {
  const summary = section(replies.summary, 'SUMMARY')[0];
  const temps = section(replies.temps, 'TEMPS')
    .map((t) => num(t.Chip))
    .filter((t): t is number => t !== null && t > 0);
  const fans = section(replies.fans, 'FANS').map((f) => num(f.RPM) ?? 0);
  const tuner = section(replies.tunerstatus, 'TUNERSTATUS')[0];
  const details = section(replies.devdetails, 'DEVDETAILS')[0];
  const model = text(details?.Model);
  return {
    ...base,
    model: model.replace(/^antminer\s*/i, '') || base.model,
    brand: /^antminer/i.test(model) ? 'Antminer' : (base.brand ?? ''),
    hashrate_realtime: reading(hashrateOf(summary, '5s') ?? hashrateOf(summary, '1m')),
    hashrate_avg: reading(hashrateOf(summary, 'av')),
    chip_max_temp: reading(max(temps), 1),
    chip_avg_temp: reading(mean(temps), 1),
    power_w: reading(num(tuner?.ApproximateMinerPowerConsumption), 0),
    uptime_s: reading(num(summary?.Elapsed), 0),
    fans,
    fault: fans.length && fans.some((rpm) => rpm === 0) ? 'fan' : '',
    firmware: id.firmware,
  };
};

/** Any other cgminer: hash rates from `summary`, temperatures from `devs` (`Temperature` per device). */
const cgminer = (id: Identity, replies: Replies, base: Partial<MinerReading>): Partial<MinerReading> => {
  const summary = section(replies.summary, 'SUMMARY')[0];
  const temps = section(replies.devs, 'DEVS')
    .map((d) => num(d.Temperature))
    .filter((t): t is number => t !== null && t > 0);
  return {
    ...base,
    hashrate_realtime: reading(hashrateOf(summary, '5s')),
    hashrate_avg: reading(hashrateOf(summary, 'av')),
    chip_max_temp: reading(max(temps), 1),
    chip_avg_temp: reading(mean(temps), 1),
    uptime_s: reading(num(summary?.Elapsed), 0),
    firmware: id.firmware,
  };
};

/**
 * One poll's replies → a reading. `fallbackSn` stands in when the API gives no serial (Antminer
 * firmware without `miner_id`, Braiins OS, plain cgminer): the collector derives it from where the
 * miner answers (`cg-<ip>-<port>`).
 */
export const toReading = (
  replies: Replies,
  fallbackSn: string,
): { reading: MinerReading; identity: Identity } => {
  const identity = identify(replies.version ?? null, replies.stats ?? null);
  const pool = activePool(replies.pools);
  const base: MinerReading = {
    sn: '',
    brand: identity.brand,
    model: identity.model,
    firmware: identity.firmware,
    worker: pool?.user ?? '',
    pool: pool ? poolHost(pool.url) : '',
    pool_address: pool?.url ?? '',
    ...noFigures,
    fans: [],
  };
  const byFamily = { antminer, avalon, braiins, cgminer }[identity.family];
  const mapped = { ...base, ...byFamily(identity, replies, base) } as MinerReading;
  if (!mapped.sn) mapped.sn = fallbackSn;
  return { reading: mapped, identity };
};
