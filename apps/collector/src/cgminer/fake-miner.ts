import { createServer, type Server } from 'node:net';
import { type FakeBehaviour, type FakeMinerReadings, listenFake } from '../fake-server.js';

/**
 * A fake CGMiner-API miner for tests, written from the cgminer API-README and the answers Antminer
 * (BMMiner) and Avalon firmware give: one request per connection (JSON `{"command":…}` or plain
 * `cmd|param`), the reply and a NUL, then the connection closes. It keeps the quirks of real
 * firmware: the NUL, BMMiner's `stats` with no comma between its two elements (`}{`), GH/s keys on
 * Antminer and MH/s keys on Avalon. It can be told to hang (accept and never answer), to answer
 * garbage, to refuse combined `a+b` commands or the privileged `restart`.
 */

export type FakeFlavor = 'antminer' | 'avalon';
export type { FakeBehaviour } from '../fake-server.js';

export interface FakeMinerOptions extends FakeMinerReadings {
  flavor: FakeFlavor;
  /** Antminer `miner_id` / Avalon `DNA`. */
  id: string;
  /** Antminer `Type` (`Antminer S19j Pro`) or Avalon `MODEL` (`1246`); `idealTh` is Antminer `total_rateideal`, Avalon `GHSmm`. */
  model?: string;
  /** One hash board reports no chips (`chain_acn` 0 / Avalon `ECHU` non-zero). */
  deadChain?: boolean;
  /** Firmware that refuses `summary+stats` (E status, code 14): the client must ask one by one. */
  refuseCombined?: boolean;
  /** `restart` answered "Access denied" (the API's privileged-command refusal). */
  refuseRestart?: boolean;
}

export interface FakeMiner {
  readonly port: number;
  readonly host: string;
  options: FakeMinerOptions;
  behaviour: FakeBehaviour;
  /** Every command received, in order (`version`, `summary+stats+pools` …). */
  readonly commands: string[];
  /** `restart` commands obeyed. */
  restarts: number;
  stop(): Promise<void>;
}

const status = (code: number, msg: string, description: string, letter = 'S') => [
  { STATUS: letter, When: Math.floor(Date.now() / 1000), Code: code, Msg: msg, Description: description },
];

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Antminer replies (S19-era stock firmware, BMMiner API 3.1). */
const antminer = (o: Required<FakeMinerOptions>, elapsed: number) => {
  const description = 'bmminer 1.0.0';
  const ghs = o.hashrateTh * 1000;
  const head = {
    BMMiner: '1.0.0',
    Miner: 'uart_trans.1.3',
    CompileTime: 'Mon Sep 13 17:01:56 CST 2021',
    Type: o.model,
  };
  const chains = [1, 2, 3];
  const perChain = ghs / 3;
  const chain = (n: number, key: string) => {
    const dead = o.deadChain && n === 2;
    switch (key) {
      case 'acn':
        return dead ? 0 : 126;
      case 'rate':
        return dead ? '0.00' : round2(perChain).toFixed(2);
      case 'acs':
        return dead ? '' : ` ${'oooooooo '.repeat(15)}oooooo`;
      default:
        return dead
          ? '0-0-0-0'
          : `${o.chipAvgTemp - 8}-${o.chipAvgTemp - 8}-${o.chipMaxTemp}-${o.chipAvgTemp + 4}`;
    }
  };
  const device: Record<string, unknown> = {
    STATS: 0,
    ID: 'BTM_SOC0',
    Elapsed: elapsed,
    Calls: 0,
    Wait: 0.0,
    Max: 0.0,
    Min: 99999999.0,
    'GHS 5s': round2(ghs).toFixed(2),
    'GHS av': round2(ghs * 0.998),
    rate_30m: round2(ghs * 0.999),
    Mode: 2,
    miner_count: 3,
    frequency: 525,
    fan_num: 4,
    fan1: 5040,
    fan2: o.fanStopped ? 0 : 5100,
    fan3: 5060,
    fan4: 5080,
    temp_num: 3,
  };
  for (const n of chains) device[`temp${n}`] = o.chipAvgTemp - 10;
  for (const n of chains) device[`temp_pcb${n}`] = `${o.chipAvgTemp - 15}-${o.chipAvgTemp - 15}-40-40`;
  for (const n of chains) device[`temp_chip${n}`] = chain(n, 'temp');
  Object.assign(device, {
    total_rateideal: round2(o.idealTh * 1000),
    rate_unit: 'GH',
    total_freqavg: 525,
    total_acn: o.deadChain ? 252 : 378,
    'total rate': round2(ghs),
    temp_max: o.chipMaxTemp,
    no_matching_work: 0,
  });
  for (const n of chains) {
    device[`chain_acn${n}`] = chain(n, 'acn');
    device[`chain_acs${n}`] = chain(n, 'acs');
    device[`chain_hw${n}`] = 0;
    device[`chain_rate${n}`] = chain(n, 'rate');
    device[`freq${n}`] = 525;
  }
  device.miner_version = 'uart_trans.1.3';
  device.miner_id = o.id;
  const pools = [
    { POOL: 0, URL: o.pool, Status: 'Alive', Priority: 0, User: o.worker, 'Stratum Active': true },
    {
      POOL: 1,
      URL: 'stratum+tcp://backup.example.com:3333',
      Status: 'Alive',
      Priority: 1,
      User: o.worker,
      'Stratum Active': false,
    },
  ].map((pool) => ({
    Quota: 1,
    'Long Poll': 'N',
    Getworks: 1200,
    Accepted: 5400,
    Rejected: 3,
    'Has Stratum': true,
    ...pool,
  }));
  return {
    description,
    reports: {
      version: {
        STATUS: status(22, 'CGMiner versions', description),
        VERSION: [{ ...head, API: '3.1' }],
        id: 1,
      },
      summary: {
        STATUS: status(11, 'Summary', description),
        SUMMARY: [
          {
            Elapsed: elapsed,
            'GHS 5s': round2(ghs).toFixed(2),
            'GHS av': round2(ghs * 0.998),
            'Found Blocks': 0,
            Accepted: 5400,
            Rejected: 3,
            'Hardware Errors': 12,
            Utility: 4.2,
            Stale: 0,
            'Best Share': 1234567890,
          },
        ],
        id: 1,
      },
      stats: { STATUS: status(70, 'CGMiner stats', description), STATS: [head, device], id: 1 },
      pools: { STATUS: status(7, '2 Pool(s)', description), POOLS: pools, id: 1 },
    } as Record<string, Record<string, unknown>>,
  };
};

/** Avalon replies (Canaan cgminer 4.11.1, API 3.7). */
const avalon = (o: Required<FakeMinerOptions>, elapsed: number) => {
  const description = 'cgminer 4.11.1';
  const mhs = o.hashrateTh * 1e6;
  const ghs = o.hashrateTh * 1000;
  const fans = [6120, o.fanStopped ? 0 : 6060, 6090, 6150];
  const mm = [
    `Ver[${o.model}-83-21042001_4ec6bb0_61407fa]`,
    'LVer[21042001_4ec6bb0_61407fa]',
    'BVer[21042001_4ec6bb0_61407fa]',
    'HVer[MM3v2_X3]',
    `DNA[${o.id}]`,
    'MAC[b4a2eb3f2d11]',
    'STATE[2]',
    `Elapsed[${elapsed}]`,
    'MH[0 0 0]',
    'HW[0]',
    'DH[1.234%]',
    'Temp[29]',
    `TMax[${o.chipMaxTemp}]`,
    `TAvg[${o.chipAvgTemp}]`,
    ...fans.map((rpm, i) => `Fan${i + 1}[${rpm}]`),
    'FanR[90%]',
    'Vo[311]',
    `PS[0 1213 1279 201 2574 1279 ${o.powerW}]`,
    `GHSspd[${round2(ghs).toFixed(2)}]`,
    'DHspd[1.234%]',
    `GHSmm[${round2(o.idealTh * 1000).toFixed(2)}]`,
    `GHSavg[${round2(ghs * 0.997).toFixed(2)}]`,
    'Freq[525.83]',
    `MTmax[${o.chipMaxTemp} ${o.chipMaxTemp - 1} ${o.chipMaxTemp - 2}]`,
    `ECHU[0 ${o.deadChain ? 512 : 0} 0]`,
    'ECMM[0]',
    'SoftOFF[0]',
    'WORKMODE[1]',
  ].join(' ');
  return {
    description,
    reports: {
      version: {
        STATUS: status(22, 'CGMiner versions', description),
        VERSION: [
          {
            CGMiner: '4.11.1',
            API: '3.7',
            PROD: `AvalonMiner ${o.model}`,
            MODEL: o.model,
            HWTYPE: 'MM3v2_X3',
            SWTYPE: 'MM319',
            LVERSION: '21042001_4ec6bb0_61407fa',
            DNA: o.id,
            MAC: 'b4a2eb3f2d11',
          },
        ],
        id: 1,
      },
      summary: {
        STATUS: status(11, 'Summary', description),
        SUMMARY: [
          {
            Elapsed: elapsed,
            'MHS av': round2(mhs * 0.997),
            'MHS 5s': round2(mhs),
            'MHS 1m': round2(mhs),
            'MHS 5m': round2(mhs),
            'MHS 15m': round2(mhs),
            Accepted: 2612,
            Rejected: 2,
          },
        ],
        id: 1,
      },
      stats: {
        STATUS: status(70, 'CGMiner stats', description),
        STATS: [
          {
            STATS: 0,
            ID: 'AVA100',
            Elapsed: elapsed,
            Calls: 0,
            'MM ID0': mm,
            'MM Count': 1,
            'Smart Speed': 1,
          },
          { STATS: 1, ID: 'POOL0', Elapsed: elapsed, Calls: 0, 'Pool Calls': 0 },
        ],
        id: 1,
      },
      pools: {
        STATUS: status(7, '1 Pool(s)', description),
        POOLS: [
          {
            POOL: 0,
            URL: o.pool,
            Status: 'Alive',
            Priority: 0,
            User: o.worker,
            'Stratum Active': true,
            'Has Stratum': true,
          },
        ],
        id: 1,
      },
      devs: {
        STATUS: status(9, '1 ASC(s)', description),
        DEVS: [
          {
            ASC: 0,
            Name: 'AVA10',
            ID: 0,
            Enabled: 'Y',
            Status: 'Alive',
            Temperature: 29.0,
            'MHS av': round2(mhs),
          },
        ],
        id: 1,
      },
    } as Record<string, Record<string, unknown>>,
  };
};

const defaults = (options: FakeMinerOptions): Required<FakeMinerOptions> => ({
  model: options.flavor === 'antminer' ? 'Antminer S19j Pro' : '1246',
  hashrateTh: options.flavor === 'antminer' ? 104.5 : 87.2,
  idealTh: options.flavor === 'antminer' ? 104 : 90,
  chipMaxTemp: 72,
  chipAvgTemp: 64,
  powerW: 3250,
  pool: 'stratum+tcp://btc.viabtc.io:3333',
  worker: 'acct.001',
  uptimeS: 3600,
  deadChain: false,
  fanStopped: false,
  refuseCombined: false,
  refuseRestart: false,
  behaviour: 'normal',
  port: 0,
  host: '127.0.0.1',
  ...options,
});

/** `{"STATS":[{…},{…}]` → `{"STATS":[{…}{…}]`: BMMiner's missing comma. */
const bmminerQuirk = (json: string) => json.replace(/("Type":"[^"]*"})\s*,\s*(\{"STATS":0)/, '$1$2');

export const startFakeMiner = async (options: FakeMinerOptions): Promise<FakeMiner> => {
  let startedAt = Date.now() - (options.uptimeS ?? 3600) * 1000;
  const commands: string[] = [];
  const fake: FakeMiner = {
    port: 0,
    host: options.host ?? '127.0.0.1',
    options,
    behaviour: options.behaviour ?? 'normal',
    commands,
    restarts: 0,
    stop: () => listening.stop(),
  };

  /** The reply to one request; none of the commands this fake knows takes a parameter, so it is not read. */
  const answer = (request: string): string => {
    let command = request.trim();
    if (command.startsWith('{')) {
      try {
        command = String((JSON.parse(command) as { command?: unknown }).command ?? '');
      } catch {
        return JSON.stringify({ STATUS: status(23, 'Invalid JSON', 'cgminer', 'E'), id: 1 });
      }
    } else command = command.split('|')[0] ?? '';
    commands.push(command);
    const o = defaults(fake.options);
    const elapsed = Math.max(0, Math.floor((Date.now() - startedAt) / 1000));
    const { description, reports } = (o.flavor === 'antminer' ? antminer : avalon)(o, elapsed);
    const invalid = { STATUS: status(14, 'Invalid command', description, 'E'), id: 1 };
    if (command === 'restart') {
      if (o.refuseRestart)
        return JSON.stringify({
          STATUS: status(45, "Access denied to 'restart' command", description, 'E'),
          id: 1,
        });
      fake.restarts++;
      startedAt = Date.now();
      return o.flavor === 'antminer' ? JSON.stringify({ STATUS: 'RESTART' }) : 'RESTART';
    }
    const text = (value: unknown) => {
      const json = JSON.stringify(value);
      return o.flavor === 'antminer' ? bmminerQuirk(json) : json;
    };
    if (command.includes('+')) {
      if (o.refuseCombined) return JSON.stringify(invalid);
      const combined: Record<string, unknown> = {};
      for (const part of command.split('+').filter(Boolean))
        combined[part] = [
          reports[part] ?? { ...invalid, STATUS: status(14, 'Invalid command', description, 'E') },
        ];
      combined.id = 1;
      return text(combined);
    }
    const report = reports[command];
    return text(report ?? invalid);
  };

  const server: Server = createServer((socket) => {
    let request = '';
    socket.on('data', (chunk) => {
      request += chunk.toString('utf8');
      // One request per connection: complete once it parses (JSON) or a line ends (plain text).
      const complete = request.trim().startsWith('{')
        ? (() => {
            try {
              JSON.parse(request);
              return true;
            } catch {
              return false;
            }
          })()
        : true;
      if (!complete) return;
      if (fake.behaviour === 'hang') return; // accepted, never answered, never closed
      if (fake.behaviour === 'garbage') {
        socket.end(Buffer.from('\u0001\u00ffHTTP/1.0 {"STATUS":[{"STATUS":"S",,~~ garbage \u0000', 'latin1'));
        return;
      }
      const reply = answer(request);
      socket.end(`${reply}\u0000`);
    });
  });
  const listening = await listenFake(server, fake.host, options.port);
  Object.defineProperty(fake, 'port', { value: listening.port });
  return fake;
};
