import { type AddressInfo, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeMiner, startFakeMiner } from '../cgminer/fake-miner.js';
import { type FakeWhatsminerV2, startFakeWhatsminerV2 } from './fake-v2.js';
import { type FakeWhatsminerV3, startFakeWhatsminerV3 } from './fake-v3.js';
import { WhatsminerV3Protocol } from './protocol-v3.js';
import { encodeFrame, requestV3 } from './transport.js';

const options = { connectTimeoutMs: 500, requestTimeoutMs: 800 };

describe('Whatsminer API v3 against fakes on 127.0.0.1', () => {
  let miner: FakeWhatsminerV3;
  let broken: FakeWhatsminerV3;
  let v2: FakeWhatsminerV2;
  let antminer: FakeMiner;

  beforeAll(async () => {
    miner = await startFakeWhatsminerV3({
      id: 'HTM60S2410K0001',
      adminPassword: 'Op3rator!',
      errorCodes: [110],
    });
    broken = await startFakeWhatsminerV3({ id: 'HTM60S2410K0002' });
    v2 = await startFakeWhatsminerV2({ id: 'HTM56S2301A0009' });
    antminer = await startFakeMiner({ flavor: 'antminer', id: 'AM-0009' });
  });
  afterAll(async () => {
    await Promise.all([miner, broken, v2, antminer].map((fake) => fake.stop()));
  });

  const at = (fake: { host: string; port: number }) => ({ host: fake.host, port: fake.port });

  it('frames requests, and reads an answer split in pieces after a heartbeat', async () => {
    const text = await requestV3({ cmd: 'get.miner.setting' }, { ...at(miner), ...options, timeoutMs: 800 });
    expect(JSON.parse(text)).toMatchObject({ code: 0, msg: { 'power-mode': 'normal' } });
    expect(encodeFrame('{}')).toEqual(Buffer.from([2, 0, 0, 0, 0x7b, 0x7d]));

    const server = createServer((socket) => {
      socket.once('data', () => {
        const framed = Buffer.concat([Buffer.alloc(4), encodeFrame('{"code":0,"msg":"ok","desc":"x"}')]);
        socket.write(framed.subarray(0, 6));
        setTimeout(() => socket.write(framed.subarray(6)), 20);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const answer = await requestV3({ cmd: 'x' }, { host: '127.0.0.1', port, ...options, timeoutMs: 800 });
      expect(answer).toBe('{"code":0,"msg":"ok","desc":"x"}');
    } finally {
      server.close();
    }
  });

  it('identifies the miner with get.device.info and reads status and setting', async () => {
    const protocol = new WhatsminerV3Protocol(options);
    const before = miner.commands.length;
    const found = await protocol.probe(at(miner), 800);
    expect(found).toMatchObject({ protocol: 'whatsminer-v3', family: 'whatsminer' });
    expect(found?.reading).toMatchObject({
      sn: 'HTM60S2410K0001',
      brand: 'Whatsminer',
      model: 'M60S',
      firmware: '20250915.16.Rel2',
      pool: 'btc.viabtc.io',
      worker: 'acct.001',
      mode: 'high',
      hashrate_realtime: 186,
      hashrate_theoretical: 186,
      chip_max_temp: 81.4,
      power_w: 3420,
      fault: 'fan',
      fans: [4980, 5070],
    });
    expect(miner.commands.slice(before)).toEqual([
      'get.device.info',
      'get.miner.status',
      'get.miner.setting',
    ]);
  });

  it('finds nothing on a v2 Whatsminer or a CGMiner port', async () => {
    const protocol = new WhatsminerV3Protocol(options);
    expect(await protocol.probe(at(v2), 500)).toBeNull();
    expect(await protocol.probe(at(antminer), 500)).toBeNull();
  });

  it('signs each write with the salt, and the changes show in later reads', async () => {
    const protocol = new WhatsminerV3Protocol({ ...options, password: 'Op3rator!' });
    expect(await protocol.setMode(at(miner), 'low')).toEqual({ ok: true });
    const pool = { url: 'stratum+tcp://ss.antpool.com:3333', worker: 'farm.42', password: 'x' };
    expect(await protocol.setPool(at(miner), pool)).toEqual({ ok: true });
    expect(await protocol.restart(at(miner))).toEqual({ ok: true });
    expect(await protocol.reboot(at(miner))).toEqual({ ok: true });
    expect(miner.writes).toEqual([
      { cmd: 'set.miner.power_mode', params: { param: 'low' } },
      {
        cmd: 'set.miner.pools',
        params: {
          pools: [
            { pool: 'stratum+tcp://ss.antpool.com:3333', worker: 'farm.42', passwd: 'x' },
            { pool: 'stratum+tcp://btc.viabtc.io:3333', worker: 'acct.001', passwd: 'x' },
            { pool: 'stratum+tcp://btc.viabtc.io:443', worker: 'acct.001', passwd: 'x' },
          ],
        },
      },
      { cmd: 'set.miner.service', params: { param: 'restart' } },
      { cmd: 'set.system.reboot', params: {} },
    ]);
    const polled = await protocol.poll(at(miner));
    expect(polled.reading).toMatchObject({ mode: 'low', pool: 'ss.antpool.com', worker: 'farm.42' });
    expect(polled.reading.hashrate_realtime).toBeCloseTo(148.8, 1);
    expect(await protocol.setMode(at(miner), 'high')).toEqual({ ok: true });
    expect((await protocol.poll(at(miner))).reading.mode).toBe('high');
  });

  it('answers a wrong password or account with the device’s own error', async () => {
    const before = miner.writes.length;
    expect(await new WhatsminerV3Protocol(options).restart(at(miner))).toEqual({
      ok: false,
      error: 'no permission',
    });
    const wrongAccount = new WhatsminerV3Protocol({ ...options, account: 'user1', password: 'Op3rator!' });
    expect(await wrongAccount.reboot(at(miner))).toEqual({ ok: false, error: 'no permission' });
    expect(miner.writes.length).toBe(before);
  });

  it('times out a hanging miner and refuses garbage with a reason', async () => {
    const protocol = new WhatsminerV3Protocol(options);
    broken.behaviour = 'hang';
    const started = Date.now();
    await expect(protocol.poll(at(broken))).rejects.toThrow(/no complete answer .* within 800 ms/);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(await protocol.probe(at(broken), 300)).toBeNull();
    broken.behaviour = 'garbage';
    await expect(protocol.poll(at(broken))).rejects.toThrow(/announces \d+ bytes/);
    expect(await protocol.probe(at(broken), 500)).toBeNull();
    expect(await protocol.setMode(at(broken), 'low')).toMatchObject({
      ok: false,
      error: /^miner unreachable/,
    });
    await expect(protocol.poll({ host: '127.0.0.1', port: 1 })).rejects.toThrow(/connection refused/);
  });
});
