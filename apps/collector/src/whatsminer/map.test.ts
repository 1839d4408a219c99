import { describe, expect, it } from 'vitest';
import { parseJsonReply } from '../cgminer/parse.js';
import { errorCodes, faultOf, modelName } from './common.js';
import { recordsOf, statusV2, toReadingV2 } from './map-v2.js';
import { toReadingV3 } from './map-v3.js';

/** An M30S+ summary as API v2 firmware writes it (cgminer-style shape, MH/s). */
const m30Summary = parseJsonReply(
  '{"STATUS":[{"STATUS":"S","Msg":"Summary"}],"SUMMARY":[{"Elapsed":2648,"MHS av":84983730.62,' +
    '"MHS 5s":102423869.64,"MHS 1m":86361423.06,"MHS 5m":84941366.02,"MHS 15m":84969424.09,' +
    '"HS RT":84941366.02,"Accepted":804,"Rejected":0,"Total MH":225043191209.0000,"Temperature":80.00,' +
    '"freq_avg":646,"Fan Speed In":4530,"Fan Speed Out":4530,"Power":3593,"Power Rate":42.31,' +
    '"Pool Rejected%":0.0000,"Pool Stale%":0.0000,"Last getwork":0,"Uptime":20507,"Security Mode":0,' +
    '"Hash Stable":true,"Hash Stable Cost Seconds":17569,"Hash Deviation%":0.1398,"Target Freq":574,' +
    '"Target MHS":76157172,"Env Temp":32.00,"Power Mode":"Normal","Factory GHS":84773,"Power Limit":3600,' +
    '"Chip Temp Min":75.17,"Chip Temp Max":101.25,"Chip Temp Avg":89.60,"Debug":"-0.0_100.0_354",' +
    '"Btminer Fast Boot":"disable"}],"id":1}',
);

const m30Pools = parseJsonReply(
  '{"STATUS":[{"STATUS":"S","Msg":"3 Pool(s)"}],"POOLS":[' +
    '{"POOL":1,"URL":"stratum+tcp://btc.f2pool.com:1314","Status":"Alive","Priority":0,"User":"haven7346.001","Stratum Active":true},' +
    '{"POOL":2,"URL":"stratum+tcp://btc-asia.f2pool.com:1314","Status":"Alive","Priority":1,"User":"haven7346.001","Stratum Active":false}],"id":1}',
);

const answer = (msg: unknown) => ({ STATUS: 'S', When: 1764230000, Code: 131, Msg: msg, Description: '' });

describe('API v2 answers', () => {
  it('reads the status of both shapes, with the device’s own text', () => {
    expect(
      statusV2(
        parseJsonReply(
          '{"STATUS":"E","When":1771351973,"Code":14,"Msg":"invalid cmd","Description":"whatsminer v1.1"}',
        ),
      ),
    ).toEqual({
      status: 'E',
      code: 14,
      msg: 'invalid cmd',
    });
    expect(statusV2(m30Summary)).toMatchObject({ status: 'S', msg: 'Summary' });
  });

  it('maps a classic summary, pools, devdetails and get_* answers', () => {
    const reading = toReadingV2(
      {
        summary: m30Summary,
        pools: m30Pools,
        devdetails: {
          DEVDETAILS: [{ DEVDETAILS: 0, Name: 'SM', ID: 0, Driver: 'bitmicro', Model: 'M30S+_VE40' }],
        },
        get_version: answer({
          api_ver: '2.0.5',
          fw_ver: '20220923.19.Rel',
          platform: 'H6OS',
          chip: 'K88Z010',
        }),
        get_miner_info: answer({ ip: '10.0.4.21', mac: 'C6:07:20:00:1A:2B', minersn: 'HTM30S+2203A0123' }),
        get_error_code: answer({ error_code: [] }),
      },
      'wm-10.0.4.21-4028',
    );
    expect(reading).toMatchObject({
      sn: 'HTM30S+2203A0123',
      brand: 'Whatsminer',
      model: 'M30S+',
      firmware: '20220923.19.Rel',
      worker: 'haven7346.001',
      pool: 'btc.f2pool.com',
      pool_address: 'stratum+tcp://btc.f2pool.com:1314',
      mode: 'high',
      chip_max_temp: 101.3,
      chip_avg_temp: 89.6,
      hashrate_theoretical: 84.773,
      hashrate_avg: 84.984,
      hashrate_realtime: 84.941,
      power_w: 3593,
      uptime_s: 2648,
      fault: '',
      fans: [4530, 4530],
    });
  });

  it('reads the Msg envelope of newer firmware, low power mode and error codes', () => {
    const summary = answer({
      Elapsed: 11367,
      'MHS av': 122942400,
      'MHS 1m': 123107336,
      'HS RT': 123107336,
      'Fan Speed In': 4530,
      'Fan Speed Out': 4540,
      'Power Mode': 'Low',
      'Chip Temp Max': 0,
    });
    const boards = answer([
      { Slot: 0, 'MHS av': 61000000, 'Effective Chips': 156, 'Chip Temp Max': 88.1, 'Chip Temp Avg': 80.2 },
      { Slot: 1, 'MHS av': 61900000, 'Effective Chips': 156, 'Chip Temp Max': 90.5, 'Chip Temp Avg': 81.0 },
    ]);
    expect(recordsOf(summary, 'SUMMARY')).toHaveLength(1);
    const reading = toReadingV2(
      {
        summary,
        edevs: boards,
        pools: answer([
          { URL: 'stratum+tcp://ss.antpool.com:3333', User: 'farm.12', 'Stratum Active': true },
        ]),
        get_miner_info: answer({ mac: 'C6:07:20:00:1A:2B' }),
        get_error_code: answer({ error_code: [{ '111': '2026-11-27 08:12:45' }] }),
        get_psu: answer({ pin: '3264' }),
      },
      'wm-10.0.4.22-4028',
    );
    expect(reading).toMatchObject({
      sn: 'wm-c60720001a2b',
      model: 'Whatsminer',
      mode: 'low',
      hashrate_realtime: 123.107,
      chip_max_temp: 90.5,
      chip_avg_temp: 80.6,
      power_w: 3264,
      pool: 'ss.antpool.com',
      fault: 'fan',
    });
  });

  it('reads summary error codes of older firmware', () => {
    const summary = { SUMMARY: [{ Elapsed: 50, 'Error Code Count': 1, 'Error Code 0': 531 }] };
    expect(toReadingV2({ summary }, 'x').fault).toBe('chain');
  });
});

describe('API v3 answers', () => {
  /** `get.device.info` and `get.miner.status summary+pools+edevs` as apidoc.whatsminer.com shows them. */
  const deviceInfo = {
    miner: { working: 'true', type: 'M30S++_VH70', 'miner-sn': 'HTM30S++2402K0042' },
    system: { api: '3.0.0', platform: 'H616', fwversion: '20240722.07.51.REL' },
    power: { type: 'P221C', pin: 3264, fanspeed: 6112 },
    salt: 'px5hoXa9',
    'error-code': [
      { '531': '2025-03-12 14:52:35', reason: 'Slot1 not found.' },
      { '532': '2025-03-12 14:52:35', reason: 'Slot2 not found.' },
    ],
  };
  const status = {
    summary: {
      elapsed: 1074,
      'factory-hash': 101.366,
      'hash-average': 101.847,
      'hash-realtime': 101.847,
      'power-realtime': 3268,
      'chip-temp-min': 83.2,
      'chip-temp-avg': 92.9,
      'chip-temp-max': 100.3,
      'fan-speed-in': 4980,
      'fan-speed-out': 5070,
    },
    pools: [
      {
        id: 1,
        url: 'stratum+tcp://btc.viabtc.io:3333',
        status: 'alive',
        account: 'farm.7',
        'stratum-active': true,
      },
    ],
    edevs: [{ id: 0, slot: 0, 'hash-average': 33.97, 'effective-chips': 70, 'chip-temp-max': 97.4 }],
  };

  it('maps device info, status and setting', () => {
    const reading = toReadingV3({ deviceInfo, status, setting: { 'power-mode': 'low' } }, 'x');
    expect(reading).toMatchObject({
      sn: 'HTM30S++2402K0042',
      brand: 'Whatsminer',
      model: 'M30S++',
      firmware: '20240722.07.51.REL',
      worker: 'farm.7',
      pool: 'btc.viabtc.io',
      mode: 'low',
      chip_max_temp: 100.3,
      chip_avg_temp: 92.9,
      hashrate_theoretical: 101.366,
      hashrate_realtime: 101.847,
      hashrate_avg: 101.847,
      power_w: 3268,
      uptime_s: 1074,
      fault: 'chain',
      fans: [4980, 5070],
    });
  });

  it('gives -999 for what the miner does not report', () => {
    const reading = toReadingV3({ deviceInfo: {}, status: { summary: {} } }, 'wm3-10.0.0.9-4433');
    expect(reading).toMatchObject({
      sn: 'wm3-10.0.0.9-4433',
      hashrate_realtime: -999,
      power_w: -999,
      fans: [],
    });
  });
});

describe('shared parts', () => {
  it('names models as sold', () => {
    expect(
      ['M30S++_VH70', 'M31SV10', 'M50_VH84', 'M33S++VG40', 'WhatsMiner M56S', 'M60S+_VK20'].map(modelName),
    ).toEqual(['M30S++', 'M31S', 'M50', 'M33S++', 'M56S', 'M60S+']);
  });

  it('reads error codes in the shapes firmware writes', () => {
    expect(errorCodes([{ '110': 'x' }, '530', 201, { reason: 'n/a' }])).toEqual([110, 530, 201]);
    expect(errorCodes(undefined)).toEqual([]);
  });

  it('tells chain and fan faults apart, liquid cooling is not a fan fault', () => {
    expect(faultOf([], [{ chips: 0, hashrate: 0 }], [5000, 5000], 60)).toBe('');
    expect(faultOf([], [{ chips: 0, hashrate: 0 }], [5000, 5000], 3600)).toBe('chain');
    expect(faultOf([], [], [0, 0], 3600)).toBe('');
    expect(faultOf([], [], [5000, 0], 3600)).toBe('fan');
    expect(faultOf([203], [], [5000, 5000], 3600)).toBe('');
  });
});
