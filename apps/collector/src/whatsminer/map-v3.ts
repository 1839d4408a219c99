import { poolHost } from '../cgminer/map.js';
import { type ApiObject, num } from '../cgminer/parse.js';
import { type MinerReading, reading } from '../reading.js';
import {
  type BoardState,
  errorCodes,
  faultOf,
  max,
  mean,
  modelName,
  objectAt,
  objectsAt,
  positives,
  sum,
  text,
} from './common.js';

/**
 * Whatsminer API v3 answers → a reading, following apidoc.whatsminer.com (API 3.0.x):
 * `get.device.info` (miner type and `miner-sn`, system `fwversion`, power supply, `error-code`),
 * `get.miner.status` with `summary+pools+edevs` (hash rates in TH/s, `power-realtime` W,
 * `chip-temp-*` °C, `fan-speed-in/out` rpm, `elapsed` s) and `get.miner.setting` (`power-mode`).
 * Every answer is `{code, when, msg, desc}`; code 0 is success.
 */

/** The v3 answers of one poll (their `msg`), by command. */
export interface RepliesV3 {
  deviceInfo?: ApiObject;
  status?: ApiObject;
  setting?: ApiObject;
}

/** The pool the miner works for: the one with an active stratum, else the first alive, else the first. */
const activePoolV3 = (pools: ApiObject[]) => {
  const chosen =
    pools.find((pool) => pool['stratum-active'] === true) ??
    pools.find((pool) => /alive/i.test(text(pool.status))) ??
    pools[0];
  return chosen ? { url: text(chosen.url), user: text(chosen.account) } : null;
};

export const toReadingV3 = (replies: RepliesV3, fallbackSn: string): MinerReading => {
  const miner = objectAt(replies.deviceInfo, 'miner');
  const system = objectAt(replies.deviceInfo, 'system');
  const power = objectAt(replies.deviceInfo, 'power');
  const summary = objectAt(replies.status, 'summary');
  const boards = objectsAt(replies.status, 'edevs');
  const pool = activePoolV3(objectsAt(replies.status, 'pools'));
  const fans = ['fan-speed-in', 'fan-speed-out']
    .map((key) => num(summary[key]))
    .filter((rpm): rpm is number => rpm !== null);
  const uptime = num(summary.elapsed);
  const chipMax = num(summary['chip-temp-max']);
  const chipAvg = num(summary['chip-temp-avg']);
  const boardStates: BoardState[] = boards.map((board) => ({
    chips: num(board['effective-chips']),
    hashrate: num(board['hash-average']),
  }));
  const type = text(miner.type);
  return {
    sn: text(miner['miner-sn']) || fallbackSn,
    brand: 'Whatsminer',
    model: type ? modelName(type) : 'Whatsminer',
    firmware: text(system.fwversion),
    worker: pool?.user ?? '',
    pool: pool ? poolHost(pool.url) : '',
    pool_address: pool?.url ?? '',
    mode: /low/i.test(text(replies.setting?.['power-mode'])) ? 'low' : 'high',
    chip_max_temp: reading(chipMax && chipMax > 0 ? chipMax : max(positives(boards, 'chip-temp-max')), 1),
    chip_avg_temp: reading(chipAvg && chipAvg > 0 ? chipAvg : mean(positives(boards, 'chip-temp-avg')), 1),
    hashrate_theoretical: reading(num(summary['factory-hash']) ?? sum(positives(boards, 'factory-hash'))),
    hashrate_realtime: reading(num(summary['hash-realtime']) ?? num(summary['hash-1min'])),
    hashrate_avg: reading(num(summary['hash-average'])),
    power_w: reading(num(summary['power-realtime']) ?? num(power.pin), 0),
    fault: faultOf(errorCodes(replies.deviceInfo?.['error-code']), boardStates, fans, uptime),
    uptime_s: reading(uptime, 0),
    fans,
  };
};
