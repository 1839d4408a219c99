import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../cgminer/client.js';
import { type FakeMiner, startFakeMiner } from '../cgminer/fake-miner.js';
import { type FakeWhatsminerV2, startFakeWhatsminerV2 } from './fake-v2.js';
import { WhatsminerV2Protocol } from './protocol-v2.js';

const options = { connectTimeoutMs: 500, requestTimeoutMs: 800 };

describe('Whatsminer API v2 against fakes on 127.0.0.1', () => {
  let classic: FakeWhatsminerV2;
  let envelope: FakeWhatsminerV2;
  let writable: FakeWhatsminerV2;
  let broken: FakeWhatsminerV2;
  let antminer: FakeMiner;
  let avalon: FakeMiner;

  beforeAll(async () => {
    classic = await startFakeWhatsminerV2({ id: 'HTM56S2301A0001', fanStopped: true });
    envelope = await startFakeWhatsminerV2({
      id: 'HTM30S2203A0002',
      model: 'M30S++_VH70',
      envelope: true,
      deadBoard: true,
      errorCodes: [531],
    });
    writable = await startFakeWhatsminerV2({ id: 'HTM56S2301A0003', adminPassword: 'S3cret_1' });
    broken = await startFakeWhatsminerV2({ id: 'HTM56S2301A0004' });
    antminer = await startFakeMiner({ flavor: 'antminer', id: 'AM-0001' });
    avalon = await startFakeMiner({ flavor: 'avalon', id: '020100008c5d9f2d' });
  });
  afterAll(async () => {
    await Promise.all([classic, envelope, writable, broken, antminer, avalon].map((fake) => fake.stop()));
  });

  const at = (fake: { host: string; port: number }) => ({ host: fake.host, port: fake.port });

  it('identifies a Whatsminer with get_version and reads it', async () => {
    const protocol = new WhatsminerV2Protocol(options);
    const found = await protocol.probe(at(classic), 800);
    expect(found).toMatchObject({ protocol: 'whatsminer', family: 'whatsminer' });
    expect(found?.reading).toMatchObject({
      sn: 'HTM56S2301A0001',
      brand: 'Whatsminer',
      model: 'M56S',
      firmware: '20230911.12.Rel',
      pool: 'btc.f2pool.com',
      worker: 'acct.001',
      mode: 'high',
      hashrate_realtime: 212,
      hashrate_theoretical: 216,
      chip_max_temp: 78.5,
      power_w: 3400,
      fault: 'fan',
      fans: [5120, 0],
    });
    expect(classic.commands).toEqual([
      'get_version',
      'summary',
      'pools',
      'edevs',
      'devdetails',
      'get_miner_info',
      'get_error_code',
    ]);
  });

  it('reads the Msg envelope of newer firmware and sees the dead board', async () => {
    const polled = await new WhatsminerV2Protocol(options).poll(at(envelope));
    expect(polled.reading).toMatchObject({ sn: 'HTM30S2203A0002', model: 'M30S++', fault: 'chain' });
    expect(polled.reading.hashrate_avg).toBeCloseTo(211.58, 2);
  });

  it('returns null, quickly and without throwing, for CGMiner-API miners on the same port', async () => {
    const protocol = new WhatsminerV2Protocol(options);
    for (const fake of [antminer, avalon]) {
      const started = Date.now();
      expect(await protocol.probe(at(fake), 800)).toBeNull();
      expect(Date.now() - started).toBeLessThan(300);
    }
    expect(antminer.commands).toEqual(['']); // one request, which it did not understand
  });

  it('sends each write encrypted with a token, and the changes show in later reads', async () => {
    const protocol = new WhatsminerV2Protocol({ ...options, password: 'S3cret_1' });
    expect(await protocol.setMode(at(writable), 'low')).toEqual({ ok: true });
    const pool = { url: 'stratum+tcp://ss.antpool.com:3333', worker: 'farm.17', password: 'x' };
    expect(await protocol.setPool(at(writable), pool)).toEqual({ ok: true });
    expect(await protocol.restart(at(writable))).toEqual({ ok: true });
    expect(await protocol.reboot(at(writable))).toEqual({ ok: true });
    expect(writable.writes.map((write) => write.cmd)).toEqual([
      'set_low_power',
      'update_pools',
      'restart_btminer',
      'reboot',
    ]);
    expect(writable.writes[1]?.params).toEqual({
      pool1: 'stratum+tcp://ss.antpool.com:3333',
      worker1: 'farm.17',
      passwd1: 'x',
      pool2: 'stratum+tcp://btc.f2pool.com:1314',
      worker2: 'acct.001',
      passwd2: 'x',
      pool3: 'stratum+tcp://btc-asia.f2pool.com:1314',
      worker3: 'acct.001',
      passwd3: 'x',
    });
    expect(writable.restarts).toBe(1);
    expect(writable.reboots).toBe(1);
    expect(writable.commands.filter((cmd) => cmd === 'get_token')).toHaveLength(1); // token reused
    const polled = await protocol.poll(at(writable));
    expect(polled.reading).toMatchObject({
      mode: 'low',
      pool: 'ss.antpool.com',
      worker: 'farm.17',
      power_w: 2550,
    });
    writable.expireTokens(); // the cached token is now refused once, and a new one is fetched
    expect(await protocol.setMode(at(writable), 'high')).toEqual({ ok: true });
    expect(writable.commands.filter((cmd) => cmd === 'get_token')).toHaveLength(2);
    expect((await protocol.poll(at(writable))).reading.mode).toBe('high');
  });

  it('takes a close without an answer after restart, reboot or a power mode as done', async () => {
    const silent = await startFakeWhatsminerV2({ id: 'HTM56S2301A0005', closeOnWrite: true });
    try {
      const protocol = new WhatsminerV2Protocol(options);
      expect(await protocol.restart(at(silent))).toEqual({ ok: true });
      expect(await protocol.setMode(at(silent), 'low')).toEqual({ ok: true });
      expect(silent.restarts).toBe(1);
      expect((await protocol.poll(at(silent))).reading.mode).toBe('low');
    } finally {
      await silent.stop();
    }
  });

  it('answers a wrong admin password with the device’s own error', async () => {
    const protocol = new WhatsminerV2Protocol(options); // default `admin`, the fake wants S3cret_1
    const before = writable.writes.length;
    expect(await protocol.restart(at(writable))).toEqual({ ok: false, error: 'check token error' });
    expect(writable.writes.length).toBe(before);
  });

  it('times out a hanging miner, refuses garbage with a reason, finds nothing where nothing listens', async () => {
    const protocol = new WhatsminerV2Protocol(options);
    broken.behaviour = 'hang';
    const started = Date.now();
    await expect(protocol.poll(at(broken))).rejects.toThrow(/no complete answer .* within 800 ms/);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(await protocol.probe(at(broken), 300)).toBeNull();
    expect(await protocol.restart(at(broken))).toMatchObject({
      ok: false,
      error: /^miner unreachable: .*within/,
    });
    broken.behaviour = 'garbage';
    await expect(protocol.poll(at(broken))).rejects.toThrow(ApiError);
    await expect(protocol.poll(at(broken))).rejects.toThrow(/not a JSON answer/);
    expect(await protocol.probe(at(broken), 500)).toBeNull();
    await expect(protocol.poll({ host: '127.0.0.1', port: 1 })).rejects.toThrow(/connection refused/);
    expect(await protocol.setMode({ host: '127.0.0.1', port: 1 }, 'low')).toMatchObject({
      ok: false,
      error: /^miner unreachable/,
    });
  });
});
