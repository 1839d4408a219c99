import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { type FakeBehaviour, type FakeMinerReadings, listenFake } from '../fake-server.js';
import { aesDecrypt, aesEncrypt, v2Credentials } from './crypto.js';

/**
 * A fake Whatsminer speaking API v2 for tests, written from "Whatsminer API V2.0.5": one request
 * per connection on what would be port 4028, the answer and then the close. Reads are plain JSON
 * (`{"cmd":"summary"}`), in the cgminer-style shape (`STATUS` list + `SUMMARY` …) or, with
 * `envelope`, the newer `{"STATUS":"S","Code":131,"Msg":…}` one. Writes go through `get_token`
 * and must come as `{"enc":1,"data":…}` encrypted with the key of the admin password; a token it
 * did not issue for that password gets the documented 135 "check token error", in plain text.
 * It can hang (accept, never answer) or answer garbage. Mode and pool changes show in later reads.
 */

export type { FakeBehaviour } from '../fake-server.js';

export interface FakeWhatsminerV2Options extends FakeMinerReadings {
  /** `get_miner_info` `minersn`. */
  id: string;
  /** `devdetails` Model (`M56S_VH30`); `idealTh` is `Factory GHS`. */
  model?: string;
  /** Board 1 finds no chips and hashes nothing. */
  deadBoard?: boolean;
  /** What `get_error_code` lists. */
  errorCodes?: number[];
  /** The admin password the writes must be keyed with; default `admin`. */
  adminPassword?: string;
  /** Answer the reports in the `Msg` envelope of newer firmware. */
  envelope?: boolean;
  /** Obey restart, reboot and power-mode writes by closing without an answer, as some firmware does. */
  closeOnWrite?: boolean;
}

export interface FakeWrite {
  cmd: string;
  params: Record<string, unknown>;
}

export interface FakeWhatsminerV2 {
  readonly port: number;
  readonly host: string;
  options: FakeWhatsminerV2Options;
  behaviour: FakeBehaviour;
  /** Every command received, in order (writes as decrypted; `?` for one that could not be read). */
  readonly commands: string[];
  /** Write commands obeyed, with their parameters. */
  readonly writes: FakeWrite[];
  restarts: number;
  reboots: number;
  /** Forgets the tokens it issued, as a reboot or their 30 minutes do. */
  expireTokens(): void;
  stop(): Promise<void>;
}

const SALT = 'BQ5hoXV9';
const POWER_MODES: Record<string, string> = {
  set_low_power: 'Low',
  set_normal_power: 'Normal',
  set_high_power: 'High',
};
const CRYPT_CHARS = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const answer = (code: number, msg: unknown, status = 'S') => ({
  STATUS: status,
  When: Math.floor(Date.now() / 1000),
  Code: code,
  Msg: msg,
  Description: '',
});

const listed = (section: string, msg: string, records: unknown) => ({
  STATUS: [{ STATUS: 'S', When: Math.floor(Date.now() / 1000), Code: 131, Msg: msg, Description: '' }],
  [section]: records,
  id: 1,
});

const round2 = (n: number) => Math.round(n * 100) / 100;

export const startFakeWhatsminerV2 = async (options: FakeWhatsminerV2Options): Promise<FakeWhatsminerV2> => {
  let startedAt = Date.now() - (options.uptimeS ?? 3600) * 1000;
  let powerMode = 'Normal';
  const pools = [
    { url: options.pool ?? 'stratum+tcp://btc.f2pool.com:1314', user: options.worker ?? 'acct.001' },
    { url: 'stratum+tcp://btc-asia.f2pool.com:1314', user: options.worker ?? 'acct.001' },
    { url: 'stratum+tcp://btc-na.f2pool.com:1314', user: options.worker ?? 'acct.001' },
  ];
  const signs = new Set<string>();
  const fake: FakeWhatsminerV2 = {
    port: 0,
    host: options.host ?? '127.0.0.1',
    options,
    behaviour: options.behaviour ?? 'normal',
    commands: [],
    writes: [],
    restarts: 0,
    reboots: 0,
    expireTokens: () => signs.clear(),
    stop: () => listening.stop(),
  };
  const password = () => fake.options.adminPassword ?? 'admin';

  const reports = (): Record<string, object> => {
    const o = fake.options;
    const low = powerMode === 'Low';
    const th = (o.hashrateTh ?? 212) * (low ? 0.8 : 1);
    const ideal = o.idealTh ?? 216;
    const maxTemp = o.chipMaxTemp ?? 78.5;
    const avgTemp = o.chipAvgTemp ?? 70.2;
    const elapsed = Math.max(0, Math.floor((Date.now() - startedAt) / 1000));
    const live = o.deadBoard ? [0, 2] : [0, 1, 2];
    const summary = {
      Elapsed: elapsed,
      'MHS av': round2(th * 0.998 * 1e6),
      'MHS 5s': round2(th * 1.01 * 1e6),
      'MHS 1m': round2(th * 1e6),
      'MHS 5m': round2(th * 1e6),
      'MHS 15m': round2(th * 1e6),
      'HS RT': round2(th * 1e6),
      Accepted: 8112,
      Rejected: 4,
      Temperature: round2(avgTemp - 8),
      freq_avg: 622,
      'Fan Speed In': 5120,
      'Fan Speed Out': o.fanStopped ? 0 : 5090,
      Power: Math.round((o.powerW ?? 3400) * (low ? 0.75 : 1)),
      'Power Rate': 16.04,
      Uptime: elapsed + 120,
      'Hash Stable': true,
      'Target Freq': 600,
      'Env Temp': 31.5,
      'Power Mode': powerMode,
      'Factory GHS': Math.round(ideal * 1000),
      'Power Limit': 3600,
      'Chip Temp Min': round2(avgTemp - 9),
      'Chip Temp Max': maxTemp,
      'Chip Temp Avg': avgTemp,
      'Btminer Fast Boot': 'disable',
    };
    const boards = [0, 1, 2].map((slot) => {
      const alive = live.includes(slot);
      const mhs = alive ? round2((th / live.length) * 1e6) : 0;
      return {
        ASC: slot,
        Slot: slot,
        Enabled: 'Y',
        Status: 'Alive',
        Temperature: round2(avgTemp - 8),
        'Chip Frequency': alive ? 622 : 0,
        'MHS av': mhs,
        'MHS 5s': mhs,
        'Factory GHS': Math.round((ideal * 1000) / 3),
        'Upfreq Complete': 1,
        'Effective Chips': alive ? 156 : 0,
        'PCB SN': `HEM1EK3${slot}0622414P${slot}00${slot}`,
        'Chip Temp Min': alive ? round2(avgTemp - 9) : 0,
        'Chip Temp Max': alive ? maxTemp : 0,
        'Chip Temp Avg': alive ? avgTemp : 0,
      };
    });
    const poolRecords = pools.map((pool, i) => ({
      POOL: i + 1,
      URL: pool.url,
      Status: 'Alive',
      Priority: i,
      User: pool.user,
      'Stratum Active': i === 0,
      Accepted: i === 0 ? 8112 : 0,
    }));
    const details = [0, 1, 2].map((i) => ({
      DEVDETAILS: i,
      Name: 'SM',
      ID: i,
      Driver: 'bitmicro',
      Kernel: '',
      Model: o.model ?? 'M56S_VH30',
    }));
    const e = o.envelope;
    return {
      summary: e ? answer(131, summary) : listed('SUMMARY', 'Summary', [summary]),
      pools: e ? answer(131, poolRecords) : listed('POOLS', '3 Pool(s)', poolRecords),
      edevs: e ? answer(131, boards) : listed('DEVS', '3 ASC(s)', boards),
      devs: e ? answer(131, boards) : listed('DEVS', '3 ASC(s)', boards),
      devdetails: e ? answer(131, details) : listed('DEVDETAILS', 'Device Details', details),
      get_version: answer(131, {
        api_ver: '2.0.5',
        fw_ver: '20230911.12.Rel',
        platform: 'H616',
        chip: 'K88Z010',
      }),
      get_miner_info: answer(131, {
        ip: fake.host,
        proto: 'dhcp',
        netmask: '255.255.255.0',
        gateway: '192.168.1.1',
        dns: '192.168.1.1',
        hostname: 'WhatsMiner',
        mac: 'C6:07:20:00:1A:2B',
        ledstat: 'auto',
        minersn: o.id,
      }),
      get_error_code: answer(131, {
        error_code: (o.errorCodes ?? []).map((code) => ({ [String(code)]: '2026-11-27 08:12:45' })),
      }),
      get_psu: answer(131, { name: 'P221B', model: 'P221B', pin: String(summary.Power), fan_speed: '4992' }),
    };
  };

  const issueToken = () => {
    const newsalt = Array.from(randomBytes(8), (b) => CRYPT_CHARS[b % 64]).join('');
    const token = { time: String(Math.floor(Date.now() / 1000)), salt: SALT, newsalt };
    signs.add(v2Credentials(password(), token).sign);
    return answer(134, token);
  };

  /** Obeys one decrypted write; the plain answer to encrypt. */
  const obey = (cmd: string, params: Record<string, unknown>) => {
    switch (cmd) {
      case 'restart_btminer':
        fake.restarts++;
        startedAt = Date.now();
        break;
      case 'reboot':
        fake.reboots++;
        startedAt = Date.now();
        break;
      case 'set_low_power':
      case 'set_normal_power':
      case 'set_high_power':
        powerMode = POWER_MODES[cmd] ?? powerMode;
        break;
      case 'update_pools': {
        if (typeof params.pool1 !== 'string' || !params.pool1)
          return answer(132, 'API parse pools param error', 'E');
        pools.length = 0;
        for (const n of [1, 2, 3]) {
          const url = params[`pool${n}`];
          if (typeof url === 'string' && url) pools.push({ url, user: String(params[`worker${n}`] ?? '') });
        }
        break;
      }
      default:
        return answer(14, 'invalid cmd', 'E');
    }
    fake.writes.push({ cmd, params });
    return answer(131, 'command OK');
  };

  /** The answer to one request, as the text to send. */
  const respond = (request: Record<string, unknown>): string => {
    // The AES key depends on the password and the salt only, not on a token's time or newsalt.
    const { aesKey } = v2Credentials(password(), { time: '', salt: SALT, newsalt: SALT });
    if (request.enc === 1 || request.enc === '1') {
      let command: Record<string, unknown>;
      try {
        command = JSON.parse(aesDecrypt(String(request.data ?? ''), aesKey)) as Record<string, unknown>;
      } catch {
        fake.commands.push('?');
        return JSON.stringify(answer(135, 'check token error', 'E'));
      }
      const cmd = String(command.cmd ?? '');
      fake.commands.push(cmd);
      if (typeof command.token !== 'string' || !signs.has(command.token))
        return JSON.stringify(answer(135, 'check token error', 'E'));
      const { cmd: _cmd, token: _token, ...params } = command;
      const result = obey(cmd, params);
      if (fake.options.closeOnWrite && cmd !== 'update_pools' && result.STATUS === 'S') return '';
      return JSON.stringify({ enc: aesEncrypt(JSON.stringify(result), aesKey, 'zero') });
    }
    const cmd = String(request.cmd ?? request.command ?? '');
    fake.commands.push(cmd);
    if (cmd === 'get_token') return JSON.stringify(issueToken());
    return JSON.stringify(reports()[cmd] ?? answer(14, 'invalid cmd', 'E'));
  };

  const server: Server = createServer((socket) => {
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
      let request: Record<string, unknown>;
      try {
        request = JSON.parse(text) as Record<string, unknown>;
      } catch {
        return; // not all here yet
      }
      if (fake.behaviour === 'hang') return;
      if (fake.behaviour === 'garbage') {
        socket.end(Buffer.from('\u0001\u00ffHTTP/1.0 {"STATUS":"S",,~~ garbage', 'latin1'));
        return;
      }
      socket.end(respond(request));
    });
  });
  const listening = await listenFake(server, fake.host, options.port);
  Object.defineProperty(fake, 'port', { value: listening.port });
  return fake;
};
