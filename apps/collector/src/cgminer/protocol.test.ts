import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, rawRequest } from './client.js';
import { type FakeMiner, startFakeMiner } from './fake-miner.js';
import { CgminerProtocol } from './protocol.js';

const options = { connectTimeoutMs: 500, requestTimeoutMs: 800 };

describe('CGMiner API against fake miners on 127.0.0.1', () => {
  const fakes: FakeMiner[] = [];
  let antminer: FakeMiner;
  let avalon: FakeMiner;
  let oldFirmware: FakeMiner;
  let broken: FakeMiner;

  beforeAll(async () => {
    antminer = await startFakeMiner({ flavor: 'antminer', id: 'AM-0001', fanStopped: true });
    avalon = await startFakeMiner({ flavor: 'avalon', id: '020100008c5d9f2d', refuseRestart: true });
    oldFirmware = await startFakeMiner({
      flavor: 'antminer',
      id: 'AM-OLD',
      refuseCombined: true,
      deadChain: true,
    });
    broken = await startFakeMiner({ flavor: 'antminer', id: 'AM-BROKEN' });
    fakes.push(antminer, avalon, oldFirmware, broken);
  });
  afterAll(async () => {
    await Promise.all(fakes.map((fake) => fake.stop()));
  });

  const at = (fake: FakeMiner) => ({ host: fake.host, port: fake.port });

  it('reads a reply ended by NUL, quirks included', async () => {
    const text = await rawRequest('stats', undefined, {
      host: antminer.host,
      port: antminer.port,
      ...options,
      timeoutMs: 800,
    });
    expect(text).toContain('"Type":"Antminer S19j Pro"}{"STATS":0');
    expect(text).not.toContain('\u0000');
  });

  it('polls an Antminer with one combined request and maps it', async () => {
    const protocol = new CgminerProtocol(options);
    const before = antminer.commands.length;
    const found = await protocol.probe(at(antminer), 800);
    expect(found).toMatchObject({ protocol: 'cgminer', family: 'antminer' });
    expect(found?.reading).toMatchObject({
      sn: 'AM-0001',
      brand: 'Antminer',
      model: 'S19j Pro',
      worker: 'acct.001',
      pool: 'btc.viabtc.io',
      pool_address: 'stratum+tcp://btc.viabtc.io:3333',
      hashrate_theoretical: 104,
      chip_max_temp: 72,
      fault: 'fan',
    });
    expect(found?.reading.hashrate_realtime).toBeCloseTo(104.5, 2);
    expect(antminer.commands.slice(before)).toEqual(['version', 'version+summary+stats+pools']);
  });

  it('falls back to one request per command where `+` is refused, and sees the dead chain', async () => {
    const protocol = new CgminerProtocol(options);
    const polled = await protocol.poll(at(oldFirmware));
    expect(polled.reading).toMatchObject({ sn: 'AM-OLD', fault: 'chain' });
    expect(oldFirmware.commands).toEqual([
      'version',
      'version+summary+stats+pools',
      'version',
      'summary',
      'stats',
      'pools',
    ]);
    await protocol.poll(at(oldFirmware));
    expect(oldFirmware.commands.slice(6)).toEqual(['version', 'summary', 'stats', 'pools']);
  });

  it('polls an Avalon (MH/s) and returns its refusal of restart as the error', async () => {
    const protocol = new CgminerProtocol(options);
    const polled = await protocol.poll(at(avalon));
    expect(polled.reading).toMatchObject({
      sn: '020100008c5d9f2d',
      brand: 'Avalon',
      model: 'A1246',
      power_w: 3250,
      hashrate_theoretical: 90,
    });
    expect(polled.reading.hashrate_realtime).toBeCloseTo(87.2, 2);
    expect(await protocol.restart(at(avalon))).toEqual({
      ok: false,
      error: "Access denied to 'restart' command",
    });
    expect(await protocol.restart(at(antminer))).toEqual({ ok: true });
    expect(antminer.restarts).toBe(1);
  });

  it('times out a hanging miner, refuses garbage, and finds nothing where nothing listens', async () => {
    const protocol = new CgminerProtocol(options);
    broken.behaviour = 'hang';
    const started = Date.now();
    await expect(protocol.poll(at(broken))).rejects.toThrow(/within 800 ms/);
    expect(Date.now() - started).toBeLessThan(1500);
    broken.behaviour = 'garbage';
    await expect(protocol.poll(at(broken))).rejects.toThrow(ApiError);
    expect(await protocol.probe(at(broken), 500)).toBeNull();
    await expect(protocol.poll({ host: '127.0.0.1', port: 1 })).rejects.toThrow(/connection refused/);
    expect(await protocol.restart({ host: '127.0.0.1', port: 1 })).toMatchObject({
      ok: false,
      error: /^miner unreachable/,
    });
  });
});
