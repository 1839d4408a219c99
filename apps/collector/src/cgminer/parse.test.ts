import { describe, expect, it } from 'vitest';
import { identify } from './identify.js';
import { activePool, poolHost, toReading } from './map.js';
import {
  commandPart,
  hashrateOf,
  numberList,
  parseBracketFields,
  parseJsonReply,
  repairJson,
  statusOf,
  toTeraHash,
} from './parse.js';

/** An Antminer S9 `stats` as BMMiner writes it: no comma between the two STATS elements, 16 chain slots. */
const s9Stats =
  '{"STATUS":[{"STATUS":"S","When":1700000000,"Code":70,"Msg":"CGMiner stats","Description":"bmminer 1.0.0"}],' +
  '"STATS":[{"BMMiner":"2.0.0","Miner":"16.8.1.3","CompileTime":"Fri Nov 17 17:37:49 CST 2017","Type":"Antminer S9"}' +
  '{"STATS":0,"ID":"BC50","Elapsed":86400,"GHS 5s":"13612.45","GHS av":13580.2,"miner_count":3,"frequency":"650",' +
  '"fan_num":2,"fan1":0,"fan2":0,"fan3":5880,"fan4":0,"fan5":0,"fan6":6000,"fan7":0,"fan8":0,"temp_num":3,' +
  '"temp6":60,"temp7":62,"temp8":59,"temp2_6":75,"temp2_7":78,"temp2_8":73,' +
  '"chain_acn1":0,"chain_acn6":63,"chain_acn7":63,"chain_acn8":63,"chain_acs1":"",' +
  '"chain_acs6":" oooooooo oooooooo","chain_acs7":" oooooooo oooooooo","chain_acs8":" oooooooo oooooooo",' +
  '"chain_rate1":"","chain_rate6":"4537.15","chain_rate7":"4540.02","chain_rate8":"4535.28"}],"id":1}\u0000';

describe('repairJson: the quirks of real firmware', () => {
  it('inserts the comma BMMiner leaves out between STATS elements', () => {
    const reply = parseJsonReply(s9Stats.replace(/\0$/, ''));
    expect((reply.STATS as unknown[]).length).toBe(2);
  });

  it('leaves valid JSON alone and braces inside strings untouched', () => {
    const text = '{"a":"}{","b":[1,-2.5e3,{"c":true}],"d":null}';
    expect(repairJson(text)).toBe(text);
    expect(parseJsonReply('{"Msg":"x}{y"}').Msg).toBe('x}{y');
  });

  it('puts the missing comma back before parsing, keeps `}{` inside strings, repairs the rest', () => {
    expect(parseJsonReply('{"a":"x}{","b":{"c":"}{\\"d\\":1"}}')).toEqual({ a: 'x}{', b: { c: '}{"d":1' } });
    const quirkAndNan = s9Stats.replace(/\0$/, '').replace('"GHS av":13580.2', '"GHS av":nan');
    const stats = parseJsonReply(quirkAndNan).STATS as Record<string, unknown>[];
    expect(stats.map((s) => ('GHS av' in s ? s['GHS av'] : 'absent'))).toEqual(['absent', null]);
  });

  it('reads nan / inf as null, drops a trailing comma, escapes raw control characters', () => {
    const reply = parseJsonReply('{"GHS av":nan,"temp":-inf,"list":[1,2,],"text":"a\tb\nc",}');
    expect(reply).toEqual({ 'GHS av': null, temp: null, list: [1, 2], text: 'a\tb\nc' });
  });

  it('refuses what is not JSON with a reason', () => {
    expect(() => parseJsonReply('<html>401</html>')).toThrow(/not a JSON answer/);
    expect(() => parseJsonReply('{"STATUS":[{"STATUS":"S",,~~ garbage')).toThrow(/invalid JSON/);
  });

  it('reads STATUS sections, including BMMiner’s bare RESTART', () => {
    expect(statusOf(parseJsonReply('{"STATUS":"RESTART"}'))?.status).toBe('RESTART');
    const refused = statusOf(
      parseJsonReply(
        '{"STATUS":[{"STATUS":"E","When":1,"Code":45,"Msg":"Access denied to \'restart\' command","Description":"cgminer 4.11.1"}],"id":1}',
      ),
    );
    expect(refused).toMatchObject({ status: 'E', code: 45, msg: "Access denied to 'restart' command" });
  });

  it('takes each command of a combined answer, as arrays or as objects', () => {
    const combined = parseJsonReply(
      '{"summary":[{"STATUS":[{"STATUS":"S"}],"SUMMARY":[{"Elapsed":5}],"id":1}],"pools":{"STATUS":[{"STATUS":"S"}],"POOLS":[]},"id":1}',
    );
    expect(commandPart(combined, 'summary')?.SUMMARY).toEqual([{ Elapsed: 5 }]);
    expect(commandPart(combined, 'pools')?.POOLS).toEqual([]);
    expect(commandPart(combined, 'stats')).toBeNull();
  });
});

describe('units', () => {
  it('converts GH/s (BMMiner), MH/s (cgminer, Avalon, Braiins OS) and others to TH/s', () => {
    expect(hashrateOf({ 'GHS 5s': '104523.16', 'GHS av': 104312.5 }, '5s')).toBeCloseTo(104.52316, 6);
    expect(hashrateOf({ 'MHS 5s': 87234567.12 }, '5s')).toBeCloseTo(87.23456712, 6);
    expect(hashrateOf({ 'THS av': 0.5 }, 'av')).toBe(0.5);
    expect(hashrateOf({ 'KHS av': 1e9 }, 'av')).toBeCloseTo(1, 9);
    expect(hashrateOf({ Elapsed: 1 }, '5s')).toBeNull();
    expect(toTeraHash(104000, 'GH')).toBe(104);
    expect(toTeraHash(1, 'XH')).toBeNull();
  });

  it('reads Avalon bracket fields with spaces and nested brackets', () => {
    const fields = parseBracketFields(
      'Ver[1246-83-21042001_4ec6bb0] DNA[020100008c5d9f2d] MH[0 0 0] Temp[29] TMax[83] Fan1[6120] SF0[600 [1] 625] PS[0 1213 1279 201 2574 1279 2740] WORKMODE[1]',
    );
    expect(fields).toMatchObject({
      DNA: '020100008c5d9f2d',
      MH: '0 0 0',
      TMax: '83',
      SF0: '600 [1] 625',
      WORKMODE: '1',
    });
    expect(numberList(fields.PS)).toEqual([0, 1213, 1279, 201, 2574, 1279, 2740]);
    expect(numberList('47-47-62-62')).toEqual([47, 47, 62, 62]);
  });

  it('finds the active pool and its host', () => {
    const pools = {
      POOLS: [
        { POOL: 0, URL: 'stratum+tcp://dead.example.com:3333', Status: 'Dead', Priority: 0, User: 'a.1' },
        { POOL: 1, URL: 'stratum+tcp://btc.viabtc.io:3333', Status: 'Alive', Priority: 1, User: 'acct.7' },
        { POOL: 2, URL: 'stratum+tcp://late.example.com:3333', Status: 'Alive', Priority: 2, User: 'b.1' },
      ],
    };
    expect(activePool(pools)).toEqual({ url: 'stratum+tcp://btc.viabtc.io:3333', user: 'acct.7' });
    expect(poolHost('stratum+tcp://btc.viabtc.io:3333')).toBe('btc.viabtc.io');
    expect(poolHost('btc.f2pool.com:1314')).toBe('btc.f2pool.com');
  });
});

describe('identify and map', () => {
  const s9 = parseJsonReply(s9Stats.replace(/\0$/, ''));
  const s9Version = parseJsonReply(
    '{"STATUS":[{"STATUS":"S","Code":22,"Msg":"CGMiner versions","Description":"bmminer 1.0.0"}],"VERSION":[{"BMMiner":"2.0.0","API":"3.1","Miner":"16.8.1.3","CompileTime":"Fri Nov 17 17:37:49 CST 2017","Type":"Antminer S9"}],"id":1}',
  );

  it('maps an Antminer S9: chip temps from temp2_N, empty chain slots ignored, no serial', () => {
    const { reading, identity } = toReading({ version: s9Version, stats: s9 }, 'cg-10.0.0.9-4028');
    expect(identity).toMatchObject({ family: 'antminer', brand: 'Antminer', model: 'S9' });
    expect(reading).toMatchObject({
      sn: 'cg-10.0.0.9-4028',
      firmware: 'Fri Nov 17 17:37:49 CST 2017',
      chip_max_temp: 78,
      chip_avg_temp: 75.3,
      hashrate_theoretical: -999,
      power_w: -999,
      uptime_s: 86400,
      fault: '',
    });
    expect(reading.hashrate_realtime).toBeCloseTo(13.612, 3);
    expect(reading.fans).toEqual([0, 0, 5880, 0, 0, 6000, 0, 0]);
  });

  it('reports a dead chain and a stopped fan', () => {
    const dead = JSON.parse(JSON.stringify(s9));
    dead.STATS[1].chain_acn7 = 0;
    dead.STATS[1].chain_rate7 = '0.00';
    expect(toReading({ version: s9Version, stats: dead }, 'x').reading.fault).toBe('chain');
    const fan = JSON.parse(JSON.stringify(s9));
    fan.STATS[1].fan6 = 0;
    expect(toReading({ version: s9Version, stats: fan }, 'x').reading.fault).toBe('fan');
  });

  it('maps an Avalon: DNA as serial, MH/s summary, MM ID temperatures, fans and power', () => {
    const version = {
      STATUS: [{ STATUS: 'S' }],
      VERSION: [
        {
          CGMiner: '4.11.1',
          API: '3.7',
          PROD: 'AvalonMiner 1246',
          MODEL: '1246',
          LVERSION: '21042001_4ec6bb0',
          DNA: '020100008c5d9f2d',
          MAC: 'b4a2eb3f2d11',
        },
      ],
    };
    const summary = {
      STATUS: [{ STATUS: 'S' }],
      SUMMARY: [{ Elapsed: 7200, 'MHS av': 86500120.5, 'MHS 5s': 87100000 }],
    };
    const stats = {
      STATUS: [{ STATUS: 'S' }],
      STATS: [
        {
          STATS: 0,
          ID: 'AVA100',
          'MM ID0':
            'Ver[1246-83-21042001] DNA[020100008c5d9f2d] Elapsed[7200] TMax[81] TAvg[70] Fan1[6120] Fan2[6060] Fan3[6090] Fan4[6150] PS[0 1213 1279 201 2574 1279 3270] GHSspd[87100.00] GHSmm[90000.00] GHSavg[86500.12] ECHU[0 0 0] WORKMODE[0]',
        },
        { STATS: 1, ID: 'POOL0', Elapsed: 1 },
      ],
    };
    const { reading, identity } = toReading({ version, summary, stats }, 'unused');
    expect(identity).toMatchObject({
      family: 'avalon',
      brand: 'Avalon',
      model: 'A1246',
      firmware: '21042001_4ec6bb0',
    });
    expect(reading).toMatchObject({
      sn: '020100008c5d9f2d',
      chip_max_temp: 81,
      chip_avg_temp: 70,
      hashrate_theoretical: 90,
      power_w: 3270,
      uptime_s: 7200,
      mode: 'low',
      fault: '',
    });
    expect(reading.hashrate_realtime).toBeCloseTo(87.1, 3);
    expect(reading.hashrate_avg).toBeCloseTo(86.5, 3);
  });

  it('maps Braiins OS in its compatible mode: MH/s, temps and fans reports, tuner power', () => {
    const replies = {
      version: { STATUS: [{ STATUS: 'S' }], VERSION: [{ BOSminer: '0.2.0-36c56a3c', API: '3.7' }] },
      summary: {
        STATUS: [{ STATUS: 'S' }],
        SUMMARY: [{ Elapsed: 600, 'MHS 5s': 14020000.1, 'MHS av': 13990000 }],
      },
      devdetails: { STATUS: [{ STATUS: 'S' }], DEVDETAILS: [{ DEVDETAILS: 0, Model: 'Antminer S9' }] },
      temps: {
        STATUS: [{ STATUS: 'S' }],
        TEMPS: [
          { ID: 6, Board: 55, Chip: 71 },
          { ID: 7, Board: 56, Chip: 73 },
        ],
      },
      fans: {
        STATUS: [{ STATUS: 'S' }],
        FANS: [
          { ID: 0, RPM: 3540 },
          { ID: 1, RPM: 3600 },
        ],
      },
      tunerstatus: {
        STATUS: [{ STATUS: 'S' }],
        TUNERSTATUS: [{ PowerLimit: 1300, ApproximateMinerPowerConsumption: 1275 }],
      },
    };
    const { reading, identity } = toReading(replies, 'cg-10.0.0.3-4028');
    expect(identity.family).toBe('braiins');
    expect(reading).toMatchObject({
      brand: 'Antminer',
      model: 'S9',
      firmware: '0.2.0-36c56a3c',
      chip_max_temp: 73,
      chip_avg_temp: 72,
      power_w: 1275,
      uptime_s: 600,
      sn: 'cg-10.0.0.3-4028',
    });
    expect(reading.hashrate_realtime).toBeCloseTo(14.02, 3);
  });

  it('falls back to plain cgminer', () => {
    expect(identify({ VERSION: [{ CGMiner: '4.12.0', API: '3.7' }] })).toMatchObject({
      family: 'cgminer',
      firmware: '4.12.0',
    });
  });
});
