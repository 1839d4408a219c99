import { afterEach, describe, expect, it } from 'vitest';
import { antminerWebActions } from './actions.js';
import { AntminerWeb } from './client.js';
import { digestRequest } from './digest.js';
import { type FakeWeb, type FakeWebOptions, startFakeWeb } from './fake-web.js';

const fakes: FakeWeb[] = [];
const start = async (options: FakeWebOptions = {}) => {
  const fake = await startFakeWeb(options);
  fakes.push(fake);
  return fake;
};
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.stop()));
});

const webFor = (fake: FakeWeb, password = 'root') =>
  new AntminerWeb({ port: fake.port, password, timeoutMs: 400, writeTimeoutMs: 600 });

const posted = (fake: FakeWeb) =>
  fake.requests
    .filter((r) => r.path === '/cgi-bin/set_miner_conf.cgi' && r.authorized)
    .map((r) => JSON.parse(r.body) as Record<string, unknown>);

describe('Antminer web CGI against a fake Bitmain web interface', () => {
  it('reads system info after the Digest challenge round', async () => {
    const fake = await start();
    const info = await webFor(fake).systemInfo(fake.host);
    expect(info).toMatchObject({
      minertype: 'Antminer S19j Pro',
      serinum: 'JYZZD1BBCJABG0123',
      macaddr: '02:AB:CD:00:12:34',
      system_filesystem_version: 'Mon Sep 13 17:01:56 CST 2021',
      firmware_type: 'Release',
      nettype: 'DHCP',
    });
    expect(fake.requests.map((r) => [r.method, r.path, r.authorized])).toEqual([
      ['GET', '/cgi-bin/get_system_info.cgi', false],
      ['GET', '/cgi-bin/get_system_info.cgi', true],
    ]);
  });

  it('reads the miner configuration: three pools and the work mode', async () => {
    const fake = await start({ conf: { 'bitmain-work-mode': '1' } });
    const conf = await webFor(fake).minerConf(fake.host);
    expect(conf.pools).toHaveLength(3);
    expect(conf.pools[0]).toEqual({ url: 'stratum+tcp://btc.viabtc.io:3333', user: 'acct.001', pass: '123' });
    expect(conf['bitmain-work-mode']).toBe('1');
    expect(conf['bitmain-voltage']).toBe('1400'); // fields the client does not name are kept
  });

  it('low and high power modes show in the next get_miner_conf; the rest of the setting is kept', async () => {
    const fake = await start({ conf: { 'bitmain-fan-ctrl': true, 'bitmain-fan-pwm': '80' } });
    const web = webFor(fake);
    expect(await web.setWorkMode(fake.host, 'lowPower')).toEqual({ ok: true });
    expect((await web.minerConf(fake.host))['bitmain-work-mode']).toBe('3');
    expect(posted(fake)[0]).toEqual({
      'bitmain-fan-ctrl': true,
      'bitmain-fan-pwm': '80',
      'freq-level': '100',
      'miner-mode': 3,
      pools: [
        { url: 'stratum+tcp://btc.viabtc.io:3333', user: 'acct.001', pass: '123' },
        { url: 'stratum+tcp://backup.example.com:3333', user: 'acct.001', pass: '123' },
        { url: '', user: '', pass: '' },
      ],
    });
    expect(await web.setWorkMode(fake.host, 'normal')).toEqual({ ok: true });
    expect(fake.conf['bitmain-work-mode']).toBe('0');
    expect(fake.conf['bitmain-fan-pwm']).toBe('80');
  });

  it('a new pool becomes pool 1, pools 2 and 3 kept, the work mode untouched', async () => {
    const fake = await start({ conf: { 'bitmain-work-mode': '3' } });
    const web = webFor(fake);
    const result = await web.setFirstPool(fake.host, {
      url: 'stratum+tcp://ss.antpool.com:3333',
      worker: 'site7.a01',
      password: 'x',
    });
    expect(result).toEqual({ ok: true });
    const conf = await web.minerConf(fake.host);
    expect(conf.pools).toEqual([
      { url: 'stratum+tcp://ss.antpool.com:3333', user: 'site7.a01', pass: 'x' },
      { url: 'stratum+tcp://backup.example.com:3333', user: 'acct.001', pass: '123' },
      { url: '', user: '', pass: '' },
    ]);
    expect(conf['bitmain-work-mode']).toBe('3');
    expect(posted(fake)[0]?.['miner-mode']).toBe(3);
  });

  it('pads a short pool list to the three slots the page always sends', async () => {
    const fake = await start({ conf: { pools: [{ url: 'stratum+tcp://a:1', user: 'w', pass: 'x' }] } });
    expect(
      await webFor(fake).setFirstPool(fake.host, { url: 'stratum+tcp://b:2', worker: 'v', password: '' }),
    ).toEqual({ ok: true });
    expect(fake.conf.pools).toEqual([
      { url: 'stratum+tcp://b:2', user: 'v', pass: '' },
      { url: '', user: '', pass: '' },
      { url: '', user: '', pass: '' },
    ]);
  });

  it("returns the firmware's own refusal, and catches a setting answered OK but not applied", async () => {
    const refusing = await start({ refuseSet: { code: 'M001', msg: 'Pool url is invalid' } });
    expect(await webFor(refusing).setWorkMode(refusing.host, 'lowPower')).toEqual({
      ok: false,
      error: 'Pool url is invalid',
    });
    const ignoring = await start({ ignoreSet: true });
    expect(await webFor(ignoring).setWorkMode(ignoring.host, 'lowPower')).toEqual({
      ok: false,
      error: 'the miner accepted work mode 3 (lowPower) but its configuration does not show it',
    });
  });

  it('refuses pool values that would break the firmware config, without asking the miner', async () => {
    const fake = await start();
    const web = webFor(fake);
    expect(
      await web.setFirstPool(fake.host, { url: 'stratum+tcp://a:1', worker: 'w"1', password: 'x' }),
    ).toMatchObject({
      ok: false,
      error: /quotes/,
    });
    expect(await web.setFirstPool(fake.host, { url: ' ', worker: 'w', password: 'x' })).toMatchObject({
      ok: false,
    });
    expect(fake.requests).toEqual([]);
  });

  it('reboots, also when the device drops the connection going down', async () => {
    const fake = await start();
    expect(await webFor(fake).reboot(fake.host)).toEqual({ ok: true });
    expect(fake.reboots).toBe(1);
    const dropping = await start({ rebootDrops: true });
    expect(await webFor(dropping).reboot(dropping.host)).toEqual({ ok: true });
    expect(dropping.reboots).toBe(1);
  });

  it('says "wrong user or password" and changes nothing when the login is refused', async () => {
    const fake = await start({ password: 's3cret' });
    const web = webFor(fake, 'root');
    await expect(web.systemInfo(fake.host)).rejects.toThrow(/wrong user or password \(user root\)/);
    const result = await web.setWorkMode(fake.host, 'lowPower');
    expect(result).toMatchObject({ ok: false, error: /wrong user or password/ });
    expect(await web.reboot(fake.host)).toMatchObject({ ok: false, error: /wrong user or password/ });
    expect(fake.reboots).toBe(0);
    expect(fake.conf['bitmain-work-mode']).toBe('0');
    expect(fake.requests.every((r) => !r.authorized)).toBe(true);
    expect(await webFor(fake, 's3cret').systemInfo(fake.host)).toMatchObject({
      minertype: 'Antminer S19j Pro',
    });
  });

  it('answers a stale nonce once more with the fresh one', async () => {
    const fake = await start();
    fake.staleNext = 1;
    expect(await webFor(fake).minerConf(fake.host)).toMatchObject({ 'bitmain-work-mode': '0' });
    expect(fake.requests.map((r) => r.authorized)).toEqual([false, false, true]);
    fake.staleNext = 2; // stale again after the retry: not looped on
    await expect(webFor(fake).minerConf(fake.host)).rejects.toThrow(/fresh nonce stale again/);
  });

  it('speaks to servers without qop, naming algorithm=MD5, with an opaque', async () => {
    for (const options of [{ qop: false }, { namesAlgorithm: true, opaque: 'b1t' }] as FakeWebOptions[]) {
      const fake = await start(options);
      expect(await webFor(fake).setWorkMode(fake.host, 'lowPower')).toEqual({ ok: true });
      expect(fake.conf['bitmain-work-mode']).toBe('3');
    }
  });

  it('stops at the missing get_miner_conf.cgi of older firmware and posts nothing', async () => {
    const fake = await start({ legacy: true });
    const result = await webFor(fake).setWorkMode(fake.host, 'lowPower');
    expect(result).toEqual({
      ok: false,
      error: `${fake.host}:${fake.port} answered HTTP 404 to get_miner_conf.cgi`,
    });
    expect(fake.requests.some((r) => r.path.includes('set_miner_conf'))).toBe(false);
  });

  it('times out a hanging miner with the reason, refuses garbage, and finds nothing where nothing listens', async () => {
    const fake = await start({ behaviour: 'hang' });
    const web = webFor(fake);
    const started = Date.now();
    await expect(web.systemInfo(fake.host)).rejects.toThrow(
      /no complete answer from 127\.0\.0\.1:\d+ within 400 ms/,
    );
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await web.reboot(fake.host)).toMatchObject({
      ok: false,
      error: /^miner unreachable: no complete answer from .* within 600 ms$/,
    });
    fake.behaviour = 'garbage';
    await expect(web.systemInfo(fake.host)).rejects.toThrow(/not HTTP/);
    expect(await web.setWorkMode(fake.host, 'normal')).toMatchObject({ ok: false, error: /not HTTP/ });
    const nobody = new AntminerWeb({ port: 1, timeoutMs: 400 });
    await expect(nobody.minerConf('127.0.0.1')).rejects.toThrow(/connection refused/);
  });

  it('a caller can cancel an exchange', async () => {
    const fake = await start({ behaviour: 'hang' });
    const controller = new AbortController();
    const pending = digestRequest({
      host: fake.host,
      port: fake.port,
      path: '/cgi-bin/get_system_info.cgi',
      username: 'root',
      password: 'root',
      timeoutMs: 5000,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
  });
});

describe('antminerWebActions', () => {
  it('gives a CGMiner-read Antminer reboot, power mode and pool over the web port', async () => {
    const fake = await start();
    const actions = antminerWebActions(webFor(fake));
    const endpoint = { host: fake.host, port: 4028 }; // the API's port: the web port comes from the client
    expect(await actions.setMode(endpoint, 'low')).toEqual({ ok: true });
    expect(fake.conf['bitmain-work-mode']).toBe('3');
    expect(await actions.setMode(endpoint, 'high')).toEqual({ ok: true });
    expect(fake.conf['bitmain-work-mode']).toBe('0');
    expect(
      await actions.setPool(endpoint, {
        url: 'stratum+tcp://pool.example:3333',
        worker: 'w.1',
        password: 'x',
      }),
    ).toEqual({ ok: true });
    expect(fake.conf.pools[0]).toEqual({ url: 'stratum+tcp://pool.example:3333', user: 'w.1', pass: 'x' });
    expect(await actions.reboot(endpoint)).toEqual({ ok: true });
    expect(fake.reboots).toBe(1);
  });

  it('runs writes to one miner one after another', async () => {
    const fake = await start();
    const actions = antminerWebActions(webFor(fake));
    const endpoint = { host: fake.host, port: 4028 };
    const results = await Promise.all([
      actions.setMode(endpoint, 'low'),
      actions.setPool(endpoint, { url: 'stratum+tcp://p:1', worker: 'w', password: 'x' }),
    ]);
    expect(results).toEqual([{ ok: true }, { ok: true }]);
    // Had the two read-modify-writes interleaved, the second would have put the old mode back.
    expect(fake.conf['bitmain-work-mode']).toBe('3');
    expect(fake.conf.pools[0]?.url).toBe('stratum+tcp://p:1');
  });
});
