import { activePool, poolHost } from '../cgminer/map.js';
import { type ApiObject, num, statusOf } from '../cgminer/parse.js';
import { type MinerReading, reading } from '../reading.js';
import {
  type BoardState,
  errorCodes,
  faultOf,
  max,
  mean,
  modelName,
  positives,
  sum,
  text,
} from './common.js';

/**
 * Whatsminer API v2 answers → a reading, following "Whatsminer API V2.0.5" §4 (readable API) and
 * the answers real firmware gives. Two shapes exist: the cgminer-style one (`{"STATUS":[…],
 * "SUMMARY":[{…}]}`, `POOLS`, `DEVS`, `DEVDETAILS`) and the newer envelope every `get_*` command and
 * recent firmware's reports use (`{"STATUS":"S","Code":131,"Msg":{…}}`); both are read.
 * Units: `MHS *` and `HS RT` are MH/s, `Factory GHS` GH/s, `Power` W, `Elapsed` s.
 */

/** The v2 answers of one poll, by command. */
export type RepliesV2 = Partial<
  Record<
    | 'summary'
    | 'pools'
    | 'edevs'
    | 'devdetails'
    | 'get_version'
    | 'get_miner_info'
    | 'get_psu'
    | 'get_error_code',
    ApiObject
  >
>;

export interface StatusV2 {
  /** `S` success, `E` error (cgminer letters). */
  status: string;
  code: number | null;
  /** The device's text (`Msg` when it is a string). */
  msg: string;
}

/** The status of a v2 answer in either shape; null when it has none. */
export const statusV2 = (reply: ApiObject): StatusV2 | null => {
  if (typeof reply.STATUS === 'string') {
    return {
      status: reply.STATUS,
      code: num(reply.Code),
      msg: typeof reply.Msg === 'string' ? reply.Msg : '',
    };
  }
  const status = statusOf(reply);
  return status ? { status: status.status, code: status.code, msg: status.msg } : null;
};

export const isErrorV2 = (status: StatusV2 | null): boolean =>
  status?.status === 'E' || status?.status === 'F';

/** `Msg` when it is an object, else {}. */
export const messageOf = (reply: ApiObject | undefined): ApiObject => {
  const msg = reply?.Msg;
  return typeof msg === 'object' && msg !== null && !Array.isArray(msg) ? (msg as ApiObject) : {};
};

/** The records of a report: its `SECTION` array, or the `Msg` envelope (an array, `{section:[…]}` or one object). */
export const recordsOf = (reply: ApiObject | undefined, section: string): ApiObject[] => {
  if (!reply) return [];
  const objects = (value: unknown): ApiObject[] | null => {
    if (Array.isArray(value))
      return value.filter((item): item is ApiObject => typeof item === 'object' && item !== null);
    return null;
  };
  const direct = objects(reply[section]);
  if (direct) return direct;
  if (typeof reply[section] === 'object' && reply[section] !== null) return [reply[section] as ApiObject];
  const msg = reply.Msg;
  const list = objects(msg);
  if (list) return list;
  if (typeof msg !== 'object' || msg === null) return [];
  const inner = (msg as ApiObject)[section] ?? (msg as ApiObject)[section.toLowerCase()];
  if (typeof inner === 'object' && inner !== null) return objects(inner) ?? [inner as ApiObject];
  return [msg as ApiObject];
};

const mhsToTera = (value: number | null) => (value === null ? null : value / 1e6);
const ghsToTera = (value: number | null) => (value === null ? null : value / 1e3);

/** Error codes: `get_error_code` (API ≥ 2.0.4), else summary's `Error Code N` fields (older firmware). */
const errorCodesV2 = (replies: RepliesV2, summary: ApiObject): number[] => {
  const listed = errorCodes(messageOf(replies.get_error_code).error_code);
  if (listed.length) return listed;
  return Object.entries(summary)
    .filter(([key]) => /^Error Code \d+$/.test(key))
    .map(([, value]) => num(value))
    .filter((code): code is number => code !== null && code > 0);
};

/** The serial: `get_miner_info`'s `minersn`, else its MAC (`wm-<mac>`), else `fallbackSn`. */
const serialOf = (info: ApiObject, fallbackSn: string): string => {
  const sn = text(info.minersn);
  if (sn) return sn;
  const mac = text(info.mac).replace(/[^0-9a-f]/gi, '');
  return mac ? `wm-${mac.toLowerCase()}` : fallbackSn;
};

export const toReadingV2 = (replies: RepliesV2, fallbackSn: string): MinerReading => {
  const summary = recordsOf(replies.summary, 'SUMMARY')[0] ?? {};
  const boards = recordsOf(replies.edevs, 'DEVS');
  const details = recordsOf(replies.devdetails, 'DEVDETAILS');
  const version = messageOf(replies.get_version);
  const info = messageOf(replies.get_miner_info);
  const psu = messageOf(replies.get_psu);
  const pool = activePool({ POOLS: recordsOf(replies.pools, 'POOLS') });
  const fans = ['Fan Speed In', 'Fan Speed Out']
    .map((key) => num(summary[key]))
    .filter((rpm): rpm is number => rpm !== null);
  const uptime = num(summary.Elapsed);
  const chipMax = num(summary['Chip Temp Max']);
  const chipAvg = num(summary['Chip Temp Avg']);
  const boardStates: BoardState[] = boards.map((board) => ({
    chips: num(board['Effective Chips']),
    hashrate: mhsToTera(num(board['MHS av']) ?? num(board['MHS 5s'])),
  }));
  const type = text(details[0]?.Model) || text(summary['Miner Type']);
  return {
    sn: serialOf(info, fallbackSn),
    brand: 'Whatsminer',
    model: type ? modelName(type) : 'Whatsminer',
    firmware: text(version.fw_ver) || text(summary['Firmware Version']).replace(/^'|'$/g, ''),
    worker: pool?.user ?? '',
    pool: pool ? poolHost(pool.url) : '',
    pool_address: pool?.url ?? '',
    mode: /low/i.test(text(summary['Power Mode'])) ? 'low' : 'high',
    chip_max_temp: reading(chipMax && chipMax > 0 ? chipMax : max(positives(boards, 'Chip Temp Max')), 1),
    chip_avg_temp: reading(chipAvg && chipAvg > 0 ? chipAvg : mean(positives(boards, 'Chip Temp Avg')), 1),
    hashrate_theoretical: reading(
      ghsToTera(num(summary['Factory GHS']) ?? sum(positives(boards, 'Factory GHS'))),
    ),
    hashrate_realtime: reading(
      mhsToTera(num(summary['HS RT']) ?? num(summary['MHS 5s']) ?? num(summary['MHS 1m'])),
    ),
    hashrate_avg: reading(mhsToTera(num(summary['MHS av']))),
    power_w: reading(num(summary.Power) ?? num(psu.pin), 0),
    fault: faultOf(errorCodesV2(replies, summary), boardStates, fans, uptime),
    uptime_s: reading(uptime, 0),
    fans,
  };
};
