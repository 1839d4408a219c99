import { createDecipheriv } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { type FakeBehaviour, type FakeMinerReadings, listenFake } from '../fake-server.js';
import { v3Auth } from './crypto.js';
import type { FakeWrite } from './fake-v2.js';
import { encodeFrame } from './transport.js';

/**
 * A fake Whatsminer speaking API v3 for tests, written from apidoc.whatsminer.com: messages framed
 * by a 4-byte little-endian length, answers `{code, when, msg, desc}`. It answers
 * `get.device.info` (with its salt), `get.miner.status` (`summary`, `pools`, `edevs`, joined by
 * `+`), `get.miner.setting`, and the writes `set.miner.service`, `set.system.reboot`,
 * `set.miner.power_mode` and `set.miner.pools` (its parameter AES-encrypted) after checking
 * `account` and `token` = base64(sha256(cmd + password + salt + ts))[0..8]: otherwise code -4.
 * The connection stays open after an answer, as the device keeps it (300 s idle).
 */

export interface FakeWhatsminerV3Options extends FakeMinerReadings {
  /** `miner-sn`. */
  id: string;
  /** Miner `type` (`M60S_VK30`). */
  model?: string;
  /** Board 1 finds no chips and hashes nothing. */
  deadBoard?: boolean;
  /** Listed in `error-code`. */
  errorCodes?: number[];
  /** The write account; default `super`. */
  account?: string;
  /** Its password; default `admin`. */
  adminPassword?: string;
  salt?: string;
}

export interface FakeWhatsminerV3 {
  readonly port: number;
  readonly host: string;
  options: FakeWhatsminerV3Options;
  behaviour: FakeBehaviour;
  /** Every `cmd` received, in order. */
  readonly commands: string[];
  /** Writes obeyed; `set.miner.pools` with its decrypted list as `params.pools`. */
  readonly writes: FakeWrite[];
  restarts: number;
  reboots: number;
  stop(): Promise<void>;
}

type Json = Record<string, unknown>;

const reply = (code: number, msg: unknown, desc: string): Json => ({
  code,
  when: Math.floor(Date.now() / 1000),
  msg,
  desc,
});

const round2 = (n: number) => Math.round(n * 100) / 100;

export const startFakeWhatsminerV3 = async (options: FakeWhatsminerV3Options): Promise<FakeWhatsminerV3> => {
  let startedAt = Date.now() - (options.uptimeS ?? 3600) * 1000;
  let powerMode = 'normal';
  let pools = [
    { url: options.pool ?? 'stratum+tcp://btc.viabtc.io:3333', account: options.worker ?? 'acct.001' },
    { url: 'stratum+tcp://btc.viabtc.io:443', account: options.worker ?? 'acct.001' },
  ];
  const fake: FakeWhatsminerV3 = {
    port: 0,
    host: options.host ?? '127.0.0.1',
    options,
    behaviour: options.behaviour ?? 'normal',
    commands: [],
    writes: [],
    restarts: 0,
    reboots: 0,
    stop: () => listening.stop(),
  };
  const salt = () => fake.options.salt ?? 'px5hoXa9';

  const deviceInfo = (): Json => ({
    network: { ip: fake.host, proto: 'dhcp', hostname: 'WhatsMiner', mac: 'C8:11:0B:00:4F:21' },
    miner: {
      working: 'true',
      type: fake.options.model ?? 'M60S_VK30',
      'board-num': '3',
      'miner-sn': fake.options.id,
      'power-limit-set': '3600',
      'web-pool': 1,
    },
    system: {
      api: '3.0.3',
      platform: 'H616',
      fwversion: '20250915.16.Rel2',
      'control-board-version': 'CB6V10',
    },
    power: {
      type: 'P221B',
      model: 'P221B',
      iin: 15.4,
      vin: 231.5,
      pin: 3573,
      fanspeed: 4992,
      sn: 'A1234G56789012',
    },
    salt: salt(),
    'error-code': (fake.options.errorCodes ?? []).map((code) => ({
      [String(code)]: '2026-11-27 08:12:45',
      reason: `error ${code}`,
    })),
  });

  const status = (): Json => {
    const o = fake.options;
    const low = powerMode === 'low';
    const th = (o.hashrateTh ?? 186) * (low ? 0.8 : 1);
    const ideal = o.idealTh ?? 186;
    const maxTemp = o.chipMaxTemp ?? 81.4;
    const avgTemp = o.chipAvgTemp ?? 74.6;
    const live = o.deadBoard ? [0, 2] : [0, 1, 2];
    return {
      summary: {
        elapsed: Math.max(0, Math.floor((Date.now() - startedAt) / 1000)),
        'bootup-time': Math.max(0, Math.floor((Date.now() - startedAt) / 1000)) + 90,
        'freq-avg': 602,
        'factory-hash': ideal,
        'hash-average': round2(th * 0.998),
        'hash-1min': round2(th),
        'hash-15min': round2(th),
        'hash-realtime': round2(th),
        'power-realtime': Math.round((o.powerW ?? 3420) * (low ? 0.75 : 1)),
        'environment-temperature': 30.2,
        'board-temperature': [66.1, 67.3, 65.8],
        'chip-temp-min': round2(avgTemp - 8),
        'chip-temp-avg': avgTemp,
        'chip-temp-max': maxTemp,
        'power-limit': 3600,
        'up-freq-finish': 1,
        'fan-speed-in': 4980,
        'fan-speed-out': o.fanStopped ? 0 : 5070,
      },
      pools: pools.map((pool, i) => ({
        id: i + 1,
        url: pool.url,
        status: 'alive',
        account: pool.account,
        'stratum-active': i === 0,
      })),
      edevs: [0, 1, 2].map((slot) => {
        const alive = live.includes(slot);
        return {
          id: slot,
          slot,
          'hash-average': alive ? round2(th / live.length) : 0,
          'factory-hash': round2(ideal / 3),
          freq: alive ? 602 : 0,
          'effective-chips': alive ? 156 : 0,
          'chip-temp-min': alive ? round2(avgTemp - 8) : 0,
          'chip-temp-avg': alive ? avgTemp : 0,
          'chip-temp-max': alive ? maxTemp : 0,
        };
      }),
    };
  };

  const write = (request: Json, cmd: string): Json => {
    const password = fake.options.adminPassword ?? 'admin';
    const ts = Number(request.ts);
    const auth = v3Auth(cmd, password, salt(), ts);
    if (request.account !== (fake.options.account ?? 'super') || request.token !== auth.token)
      return reply(-4, 'no permission', cmd);
    let param = request.param;
    if (cmd === 'set.miner.pools') {
      try {
        const decipher = createDecipheriv('aes-256-ecb', auth.aesKey, null);
        const plain = Buffer.concat([
          decipher.update(Buffer.from(String(param), 'base64')),
          decipher.final(),
        ]);
        param = JSON.parse(plain.toString('utf8'));
      } catch {
        return reply(-3, 'invalid json item', cmd);
      }
      if (!Array.isArray(param) || !param.length) return reply(-3, 'invalid json item', cmd);
      pools = (param as Json[]).map((item) => ({
        url: String(item.pool ?? ''),
        account: String(item.worker ?? ''),
      }));
      fake.writes.push({ cmd, params: { pools: param } });
      return reply(0, 'ok', cmd);
    }
    if (cmd === 'set.miner.service' && param === 'restart') {
      fake.restarts++;
      startedAt = Date.now();
    } else if (cmd === 'set.system.reboot') {
      fake.reboots++;
      startedAt = Date.now();
    } else if (cmd === 'set.miner.power_mode' && ['low', 'normal', 'high'].includes(String(param))) {
      powerMode = String(param);
    } else return reply(-2, 'invalid command', cmd);
    fake.writes.push({ cmd, params: param === undefined ? {} : { param } });
    return reply(0, 'ok', cmd);
  };

  const respond = (request: Json): Json => {
    const cmd = String(request.cmd ?? '');
    fake.commands.push(cmd);
    if (cmd.startsWith('set.')) return write(request, cmd);
    if (cmd === 'get.device.info') {
      const all = deviceInfo();
      const section = typeof request.param === 'string' ? request.param : '';
      return reply(0, section ? { [section]: all[section] } : all, cmd);
    }
    if (cmd === 'get.miner.status') {
      const all = status();
      const msg: Json = {};
      for (const section of String(request.param ?? '').split('+'))
        if (section in all) msg[section] = all[section];
      return reply(0, msg, cmd);
    }
    if (cmd === 'get.miner.setting')
      return reply(0, { 'power-limit': 3600, 'power-mode': powerMode, 'fast-boot': 'disable' }, cmd);
    return reply(-2, 'invalid command', cmd);
  };

  const server: Server = createServer((socket) => {
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      while (buffer.length >= 4) {
        const length = buffer.readUInt32LE(0);
        if (buffer.length < 4 + length) return;
        const body = buffer.subarray(4, 4 + length).toString('utf8');
        buffer = buffer.subarray(4 + length);
        if (length === 0) continue; // heartbeat
        if (fake.behaviour === 'hang') return;
        if (fake.behaviour === 'garbage') {
          socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
          return;
        }
        let request: Json;
        try {
          request = JSON.parse(body) as Json;
        } catch {
          socket.write(encodeFrame(JSON.stringify(reply(-3, 'invalid json item', ''))));
          continue;
        }
        socket.write(encodeFrame(JSON.stringify(respond(request))));
      }
    });
  });
  const listening = await listenFake(server, fake.host, options.port);
  Object.defineProperty(fake, 'port', { value: listening.port });
  return fake;
};
