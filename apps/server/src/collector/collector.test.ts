import { type Collector, type FakeMiner, parseConfig, startCollector, startFakeMiner } from '@fbox/collector';
import type { CommandKind } from '@fbox/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp, testBrokers } from '../test/build-test-app.js';
import { clearRetained, cloudOf, collectorClock } from '../test/collector-world.js';
import { createArea, createFbox, createMaster } from '../test/factories.js';
import { brokerUrl, waitFor } from '../test/mqtt-client.js';

/**
 * The site collector end to end: fake CGMiner-API miners on 127.0.0.1 → the collector (scan, poll)
 * → the embedded broker as the FBOX's gateway → ingest → miner_state; and a console command back
 * to a fake through the command service, acknowledged.
 */
describeDb('site collector against fake miners, through the broker into the server', () => {
  for (const broker of testBrokers) describe(`${broker} broker`, () => suite(broker));
});

const suite = (broker: (typeof testBrokers)[number]) => {
  let t: TestApp;
  let areaId: number;
  let fbox: Awaited<ReturnType<typeof createFbox>>;
  let collector: Collector;
  const fakes: Record<string, FakeMiner> = {};
  const warnings: { msg: string; obj: Record<string, unknown> }[] = [];

  const state = () =>
    t.app.db.selectFrom('miner_state').selectAll().where('fbox_id', '=', fbox.id).orderBy('sn').execute();
  const bySn = async () => new Map((await state()).map((row) => [row.sn, row]));
  const settle = (check: () => Promise<boolean>, timeoutMs = 10_000) =>
    waitFor(async () => {
      await t.app.ingest.flush();
      return check();
    }, timeoutMs);

  const send = async (kind: CommandKind, sn: string, params: Record<string, unknown> = {}) => {
    const command = await t.app.commands.issue({
      areaId,
      fboxId: fbox.id,
      kind,
      target: { sn },
      params,
      userId: null,
    });
    await waitFor(async () => {
      const status = (await t.app.commands.get([command.id], [areaId]))[0]!.status;
      return status !== 'sent' && status !== 'pending';
    }, 10_000);
    return (await t.app.commands.get([command.id], [areaId]))[0]!;
  };

  beforeAll(async () => {
    t = await buildTestApp({ mqtt: broker, config: { commandTimeoutMs: 15_000 } });
    areaId = (await createArea(t.app, (await createMaster(t.app)).id)).id;
    fbox = await createFbox(t.app, areaId, { kind: 'air', tanks: 0 });
    fakes.s19 = await startFakeMiner({ flavor: 'antminer', id: 'a1b2c3d4e5f60001' });
    fakes.s19fan = await startFakeMiner({
      flavor: 'antminer',
      id: 'a1b2c3d4e5f60002',
      fanStopped: true,
      hashrateTh: 98.25,
    });
    fakes.avalon = await startFakeMiner({ flavor: 'avalon', id: '020100008c5d9f2d', refuseRestart: true });
    fakes.hang = await startFakeMiner({ flavor: 'antminer', id: 'a1b2c3d4e5f6dead' });
    fakes.garbage = await startFakeMiner({ flavor: 'avalon', id: '0201000000000bad' });
    const record = (obj: object, msg?: string) =>
      warnings.push({ msg: msg ?? '', obj: obj as Record<string, unknown> });
    const noop = () => {};
    collector = await startCollector({
      config: parseConfig({
        cloud: { ...cloudOf(t, fbox), computer_name: 'rack-collector' },
        scan: Object.values(fakes).map((fake) => ({ range: fake.host, port: fake.port })),
        poll_interval_s: 60,
        concurrency: { poll: 2, scan: 8 },
        timeouts: { connect_ms: 500, request_ms: 1000, scan_ms: 1000 },
      }),
      noStateFile: true,
      // Telemetry is stamped near the app's clock: ingest refuses times far from its own.
      now: collectorClock(t),
      logger: { debug: noop, info: noop, warn: record, error: record },
    });
  });

  afterAll(async () => {
    await collector?.stop();
    await Promise.all(Object.values(fakes).map((fake) => fake.stop()));
    if (t) await clearRetained(t, fbox, broker);
    await t?.close();
  });

  it('reports every miner found, with its values in our units', async () => {
    await settle(async () => (await state()).length === 5);
    const miners = await bySn();
    expect(miners.get('a1b2c3d4e5f60001')).toMatchObject({
      online: 1,
      ip: '127.0.0.1',
      brand: 'Antminer',
      model: 'S19j Pro',
      firmware: 'Mon Sep 13 17:01:56 CST 2021',
      worker: 'acct.001',
      pool: 'btc.viabtc.io',
      pool_address: 'stratum+tcp://btc.viabtc.io:3333',
      hashrate_realtime: 104.5,
      hashrate_theoretical: 104,
      chip_max_temp: 72,
      power_w: -999,
      fault: '',
    });
    expect(miners.get('a1b2c3d4e5f60001')!.uptime_s).toBeGreaterThanOrEqual(3600);
    expect(miners.get('a1b2c3d4e5f60002')).toMatchObject({
      online: 1,
      fault: 'fan',
      hashrate_realtime: 98.25,
    });
    expect(miners.get('020100008c5d9f2d')).toMatchObject({
      online: 1,
      brand: 'Avalon',
      model: 'A1246',
      hashrate_realtime: 87.2,
      hashrate_theoretical: 90,
      chip_max_temp: 72,
      chip_avg_temp: 64,
      power_w: 3250,
      mode: 'high',
    });
  });

  it('marks a hanging and a garbage-answering miner offline without stalling the others', async () => {
    fakes.hang!.behaviour = 'hang';
    fakes.garbage!.behaviour = 'garbage';
    fakes.s19!.options = { ...fakes.s19!.options, hashrateTh: 101.75 };
    const cycle = await collector.pollCycle();
    expect(cycle).toMatchObject({ polled: 5, online: 3, offline: 2 });
    // Two at a time with a 1 s time-out: the hanging miner costs one slot one second, no more.
    expect(cycle.durationMs).toBeLessThan(2000);
    await settle(async () => (await bySn()).get('a1b2c3d4e5f60001')?.hashrate_realtime === 101.75);
    const miners = await bySn();
    expect(miners.get('a1b2c3d4e5f6dead')).toMatchObject({ online: 0 });
    expect(miners.get('0201000000000bad')).toMatchObject({ online: 0 });
    expect(miners.get('020100008c5d9f2d')).toMatchObject({ online: 1 });
    const offline = warnings.filter((w) => w.msg === 'miner offline');
    expect(offline.map((w) => [w.obj.sn, w.obj.reason])).toEqual(
      expect.arrayContaining([
        ['a1b2c3d4e5f6dead', expect.stringMatching(/no complete answer .* within 1000 ms/)],
        ['0201000000000bad', expect.stringMatching(/JSON/)],
      ]),
    );
  });

  it('carries a restart from the command service to the miner and its ack back', async () => {
    const restarted = await send('miner.restart', 'a1b2c3d4e5f60002');
    expect(restarted.status).toBe('acknowledged');
    expect(fakes.s19fan!.restarts).toBe(1);

    const refused = await send('miner.restart', '020100008c5d9f2d');
    expect(refused).toMatchObject({ status: 'failed', error: "Access denied to 'restart' command" });

    const unreachable = await send('miner.restart', 'a1b2c3d4e5f6dead');
    expect(unreachable.status).toBe('failed');
    expect(unreachable.error).toMatch(/^miner unreachable/);

    // An Avalon read over CGMiner has no power mode to set.
    const unsupported = await send('miner.mode', '020100008c5d9f2d', { mode: 'low' });
    expect(unsupported).toMatchObject({ status: 'failed', error: 'miner.mode is not supported by cgminer' });
  });

  (broker === 'embedded' ? it : it.skip)('stops at start when the broker refuses its password', async () => {
    await expect(
      startCollector({
        config: parseConfig({
          cloud: {
            mqtt_url: brokerUrl(t.app),
            device_id: fbox.device_id,
            username: fbox.mqtt_username,
            password: 'not-the-password',
          },
          scan: [{ range: '127.0.0.1', port: 1 }],
        }),
        noStateFile: true,
      }),
    ).rejects.toThrow(/the cloud refused the connection/);
    // The collector that runs is not disturbed.
    await settle(async () => (await state()).filter((row) => row.online === 1).length === 3);
  });
};
