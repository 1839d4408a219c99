import {
  type Collector,
  type FakeMiner,
  type FakePdu,
  type FakeWeb,
  type FakeWhatsminerV2,
  type FakeWhatsminerV3,
  parseConfig,
  pduEntryFor,
  recordingLogger,
  startCollector,
  startFakeMiner,
  startFakePdu,
  startFakeWeb,
  startFakeWhatsminerV2,
  startFakeWhatsminerV3,
} from '@fbox/collector';
import type { MinerListItem } from '@fbox/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp, testBrokers } from '../test/build-test-app.js';
import { clearRetained, cloudOf, collectorClock } from '../test/collector-world.js';
import { createArea, createFbox, createMaster, get, login, post } from '../test/factories.js';
import { waitFor } from '../test/mqtt-client.js';
import { addGroup, api, items } from '../test/task-engine-harness.js';

const s = 1000;

/**
 * The site collector with every protocol it speaks, end to end: fake CGMiner Antminers and Avalons,
 * Whatsminers on API v2 and v3, an Antminer with its web CGI, and an APC PDU over SNMP, all on
 * 127.0.0.1 → the collector → the broker → the server's miner list; the console's mode and pool
 * commands and a PDU reboot task back to the right fake, acknowledged.
 */
describeDb('site collector with every protocol, through the broker into the server', () => {
  for (const broker of testBrokers) describe(`${broker} broker`, () => suite(broker));
});

const suite = (broker: (typeof testBrokers)[number]) => {
  let t: TestApp;
  let token: string;
  let areaId: number;
  let fbox: Awaited<ReturnType<typeof createFbox>>;
  let collector: Collector;
  let pdu: FakePdu;
  let web: FakeWeb;
  const cg: Record<string, FakeMiner> = {};
  const wm2: Record<string, FakeWhatsminerV2> = {};
  const wm3: Record<string, FakeWhatsminerV3> = {};
  const log = recordingLogger();

  const minerList = async (): Promise<Map<string, MinerListItem>> => {
    const res = (
      await get(t.app, '/index/fbox.miner/index', { area_id: String(areaId), limit: '100' }, { token })
    ).json();
    return new Map((res.data.items as MinerListItem[]).map((m) => [m.sn, m]));
  };
  const settle = (check: () => Promise<boolean>, timeoutMs = 15_000) =>
    waitFor(async () => {
      await t.app.ingest.flush();
      return check();
    }, timeoutMs);
  /** A console action on miners through the HTTP API; resolves with its commands once acknowledged or failed. */
  const act = async (path: string, sns: string[], body: Record<string, unknown>) => {
    const miners = await minerList();
    const res = (
      await post(
        t.app,
        `/index/${path}`,
        { area_id: areaId, ids: sns.map((sn) => miners.get(sn)!.id), ...body },
        { token },
      )
    ).json();
    expect(res.code).toBe(1);
    const ids = (res.data.commands as { command_id: string }[]).map((c) => c.command_id);
    const done = async () =>
      (await t.app.commands.get(ids, [areaId])).every((c) => !['sent', 'pending'].includes(c.status));
    await waitFor(done, 15_000);
    return t.app.commands.get(ids, [areaId]);
  };

  beforeAll(async () => {
    t = await buildTestApp({ mqtt: broker, config: { commandTimeoutMs: 20_000 } });
    // Ingest refuses telemetry stamped far from the app's clock; the test moves that clock for the task.
    t.clock.ms = Date.now();
    const master = await createMaster(t.app);
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id)).id;
    fbox = await createFbox(t.app, areaId, { kind: 'air', tanks: 0 });
    [cg.s19, cg.s19fan, cg.s19web, cg.avalon, cg.avalonDead, cg.garbage] = await Promise.all([
      startFakeMiner({ flavor: 'antminer', id: 'a1b2c3d4e5f6aa01' }),
      startFakeMiner({ flavor: 'antminer', id: 'a1b2c3d4e5f6aa02', fanStopped: true, hashrateTh: 98.25 }),
      startFakeMiner({ flavor: 'antminer', id: 'a1b2c3d4e5f6aa03' }),
      startFakeMiner({ flavor: 'avalon', id: '020100008c5d9f01' }),
      startFakeMiner({ flavor: 'avalon', id: '020100008c5d9f02', deadChain: true }),
      startFakeMiner({ flavor: 'avalon', id: '0201000000000bad' }),
    ]);
    [wm2.m56, wm2.m30, wm2.hang] = await Promise.all([
      startFakeWhatsminerV2({ id: 'HTM56S2305A0001' }),
      startFakeWhatsminerV2({ id: 'HTM30S2203A0002', model: 'M30S++_VH70', envelope: true, powerW: 3300 }),
      startFakeWhatsminerV2({ id: 'HTM30S2203A0dead' }),
    ]);
    [wm3.m60, wm3.m66] = await Promise.all([
      startFakeWhatsminerV3({ id: 'HTM60S2409A0001' }),
      startFakeWhatsminerV3({ id: 'HTM66S2410A0002', model: 'M66S_VL20', hashrateTh: 264.5, idealTh: 270 }),
    ]);
    web = await startFakeWeb({ password: 'site-pw' });
    pdu = await startFakePdu({ outlets: 8 });
    const ports = [...Object.values(cg), ...Object.values(wm2), ...Object.values(wm3)].map((f) => f.port);
    collector = await startCollector({
      config: parseConfig({
        cloud: cloudOf(t, fbox),
        scan: [{ range: '127.0.0.1', ports }],
        poll_interval_s: 60,
        concurrency: { poll: 4, scan: 16 },
        // A scan that misses a miner finds it only at the next scan: 800 ms per probe missed three
        // of the eleven on a loaded CI machine.
        timeouts: { connect_ms: 500, request_ms: 1000, scan_ms: 2000 },
        protocols: { antminer_web: { port: web.port, password: 'site-pw', timeout_ms: 2000 } },
        pdus: [pduEntryFor(pdu, { timeout_ms: 500 })],
        // By serial first, then by IP: every other miner here answers on 127.0.0.1.
        outlet_map: { HTM56S2305A0001: 3, a1b2c3d4e5f6aa01: 5, '127.0.0.1': 8 },
      }),
      noStateFile: true,
      now: collectorClock(t),
      logger: log.logger,
    });
  });

  afterAll(async () => {
    await collector?.stop();
    await Promise.all(
      [...Object.values(cg), ...Object.values(wm2), ...Object.values(wm3), web, pdu].map((fake) =>
        fake?.stop(),
      ),
    );
    if (t) await clearRetained(t, fbox, broker);
    await t?.close();
  });

  it('lists every miner found, whatever its protocol, with its values in our units and its outlet', async () => {
    // Every fake answers here. On a loaded machine a poll can outlast its 1 s and report a miner
    // offline until the next poll (a minute away): such a miner is polled again.
    await settle(async () => {
      const found = await minerList();
      if (found.size !== 11) return false;
      if ([...found.values()].every((m) => m.status === 'online')) return true;
      await collector.pollCycle();
      return false;
    });
    const miners = await minerList();
    expect(miners.get('a1b2c3d4e5f6aa01')).toMatchObject({
      status: 'online',
      brand: 'Antminer',
      model: 'S19j Pro',
      hashrate_realtime: 104.5,
      hashrate_theoretical: 104,
      chip_max_temp: 72,
      pool: 'btc.viabtc.io',
      outlet: 5,
    });
    expect(miners.get('a1b2c3d4e5f6aa02')).toMatchObject({
      fault: 'fan',
      hashrate_realtime: 98.25,
      outlet: 8,
    });
    expect(miners.get('020100008c5d9f01')).toMatchObject({
      brand: 'Avalon',
      model: 'A1246',
      hashrate_realtime: 87.2,
      power_w: 3250,
    });
    expect(miners.get('020100008c5d9f02')).toMatchObject({ fault: 'chain' });
    expect(miners.get('HTM56S2305A0001')).toMatchObject({
      status: 'online',
      brand: 'Whatsminer',
      model: 'M56S',
      mode: 'high',
      hashrate_realtime: 212,
      hashrate_theoretical: 216,
      chip_max_temp: 78.5,
      power_w: 3400,
      pool: 'btc.f2pool.com',
      outlet: 3,
    });
    expect(miners.get('HTM30S2203A0002')).toMatchObject({ model: 'M30S++', power_w: 3300 });
    expect(miners.get('HTM60S2409A0001')).toMatchObject({
      brand: 'Whatsminer',
      model: 'M60S',
      hashrate_realtime: 186,
      hashrate_theoretical: 186,
      chip_max_temp: 81.4,
      power_w: 3420,
      outlet: 8,
    });
    expect(miners.get('HTM66S2410A0002')).toMatchObject({ model: 'M66S', hashrate_realtime: 264.5 });
    expect(miners.get('HTM60S2409A0001')!.uptime_s).toBeGreaterThanOrEqual(3600);
    const protocols = new Map(collector.registry.all().map((m) => [m.sn, m.protocol]));
    expect(protocols.get('HTM56S2305A0001')).toBe('whatsminer');
    expect(protocols.get('HTM60S2409A0001')).toBe('whatsminer-v3');
    expect(protocols.get('a1b2c3d4e5f6aa03')).toBe('cgminer');
  });

  it('marks a hanging and a garbage-answering miner offline with a reason, without stalling the others', async () => {
    wm2.hang!.behaviour = 'hang';
    cg.garbage!.behaviour = 'garbage';
    wm3.m66!.options = { ...wm3.m66!.options, hashrateTh: 250.25 };
    // The hanging miner holds one of the four slots until its 1 s time-out, and the cycle ends. A
    // loaded machine can time out a healthy miner's poll as well: then the next cycle reaches it.
    let cycle = await collector.pollCycle();
    for (let again = 0; again < 2 && cycle.online < 9; again++) cycle = await collector.pollCycle();
    expect(cycle).toMatchObject({ polled: 11, online: 9, offline: 2 });
    expect(collector.offlineReason('HTM30S2203A0dead')).toMatch(/no complete answer .* within/);
    expect(collector.offlineReason('0201000000000bad')).toMatch(/JSON/);
    expect(log.messages('miner offline').map((m) => m.sn)).toEqual(
      expect.arrayContaining(['HTM30S2203A0dead', '0201000000000bad']),
    );
    await settle(async () => (await minerList()).get('HTM66S2410A0002')?.hashrate_realtime === 250.25);
    const miners = await minerList();
    expect(miners.get('HTM30S2203A0dead')!.status).toBe('offline');
    expect(miners.get('0201000000000bad')!.status).toBe('offline');
    expect(miners.get('HTM56S2305A0001')!.status).toBe('online');
  });

  it('carries the console’s mode and pool commands to the right fake, and their acks back', async () => {
    const mode = await act(
      'fbox.miner/changemode',
      ['HTM56S2305A0001', 'HTM60S2409A0001', 'a1b2c3d4e5f6aa03'],
      {
        mode: 'low',
      },
    );
    expect(mode.map((c) => c.status)).toEqual(['acknowledged', 'acknowledged', 'acknowledged']);
    expect(wm2.m56!.writes).toEqual([{ cmd: 'set_low_power', params: {} }]);
    expect(wm3.m60!.writes).toEqual([{ cmd: 'set.miner.power_mode', params: { param: 'low' } }]);
    expect(web.conf['bitmain-work-mode']).toBe('3');
    expect(web.requests.filter((r) => r.path === '/cgi-bin/set_miner_conf.cgi' && r.authorized)).toHaveLength(
      1,
    );

    const pool = await act('fbox.miner/changpooladdress', ['HTM30S2203A0002', 'HTM66S2410A0002'], {
      pool_address: 'ss.antpool.com:3333',
      worker: 'farm.42',
    });
    expect(pool.map((c) => c.status)).toEqual(['acknowledged', 'acknowledged']);
    expect(wm2.m30!.writes[0]).toMatchObject({
      cmd: 'update_pools',
      params: { pool1: 'stratum+tcp://ss.antpool.com:3333', worker1: 'farm.42', passwd1: 'x' },
    });
    // Pool 1 replaced, the miner's other pools kept behind it.
    expect(wm3.m66!.writes[0]).toMatchObject({ cmd: 'set.miner.pools' });
    expect(wm3.m66!.writes[0]!.params.pools).toEqual([
      { pool: 'stratum+tcp://ss.antpool.com:3333', worker: 'farm.42', passwd: 'x' },
      { pool: 'stratum+tcp://btc.viabtc.io:3333', worker: 'acct.001', passwd: 'x' },
      { pool: 'stratum+tcp://btc.viabtc.io:443', worker: 'acct.001', passwd: 'x' },
    ]);

    // An Avalon over CGMiner has no mode command: said so, and nothing is sent to it.
    const asked = cg.avalon!.commands.length;
    const avalon = await act('fbox.miner/changemode', ['020100008c5d9f01'], { mode: 'low' });
    expect(avalon[0]).toMatchObject({ status: 'failed', error: 'miner.mode is not supported by cgminer' });
    expect(cg.avalon!.commands.slice(asked)).toEqual([]);

    await collector.pollCycle();
    await settle(async () => (await minerList()).get('HTM60S2409A0001')?.mode === 'low');
    expect((await minerList()).get('HTM66S2410A0002')).toMatchObject({
      pool: 'ss.antpool.com',
      worker: 'farm.42',
    });
  });

  it('power-cycles the mapped outlet for a PDU reboot task', async () => {
    const miners = await minerList();
    const target = miners.get('HTM56S2305A0001')!;
    expect(target.outlet).toBe(3);
    const groupId = await addGroup(t.app, token, areaId, { name: 'Outlets', type: 'pdu_reboot' }, [
      target.id,
    ]);
    const tickAt = async (at: number) => {
      t.clock.ms = at;
      await t.app.taskEngine.tick();
      await waitFor(
        async () => (await items(t.app)).every((i) => i.status !== 'pending' && i.status !== 'sent'),
        15_000,
      );
    };
    const start = t.clock.ms;
    const task = await api(t.app, token, 'taskReboot/add', {
      area_id: areaId,
      kind: 'pdu',
      name: 'Power cycle',
      // Above any fake's hash rate: the miner qualifies once it has been below for the duration.
      hashrate_threshold: 1000,
      duration_seconds: 30,
      reboot_interval_seconds: 1800,
      reboot_limit: 1,
      start_at: start,
      end_at: start + 3_600_000,
      simultaneous_count: 1,
      batch_interval_seconds: 0,
      power_off_seconds: 20,
      group_ids: [groupId],
    });
    await tickAt(start);
    await tickAt(start + 30 * s);
    expect((await items(t.app, task.id)).map((i) => [i.action, i.status])).toEqual([
      ['power_off', 'acknowledged'],
    ]);
    expect(pdu.states[2]).toBe('off');
    await tickAt(start + 50 * s);
    expect((await items(t.app, task.id)).map((i) => [i.action, i.status])).toEqual([
      ['power_off', 'acknowledged'],
      ['power_on', 'acknowledged'],
    ]);
    expect(pdu.states[2]).toBe('on');
    // immediateOff (2), then immediateOn (1), on outlet 3 only.
    expect(pdu.sets.map((set) => [set.port, set.command])).toEqual([
      [3, 2],
      [3, 1],
    ]);
  });

  it('takes the Delay Switch from fbox.config and keeps it between outlet commands sent together', async () => {
    const issue = (kind: 'fbox.config' | 'pdu.outlet', target: { outlet?: number }, params: object) =>
      t.app.commands.issue({ areaId, fboxId: fbox.id, kind, target, params: { ...params }, userId: null });
    const settled = async (ids: string[]) => {
      await waitFor(
        async () =>
          (await t.app.commands.get(ids, [areaId])).every((c) => !['sent', 'pending'].includes(c.status)),
        15_000,
      );
      return t.app.commands.get(ids, [areaId]);
    };
    const config = await issue('fbox.config', {}, { delay_switch_ms: 400, voltage_min: 342 });
    expect((await settled([config.id]))[0]).toMatchObject({ status: 'acknowledged' });
    const before = pdu.sets.length;
    const off = await Promise.all([6, 7].map((outlet) => issue('pdu.outlet', { outlet }, { status: 'off' })));
    expect((await settled(off.map((c) => c.id))).map((c) => c.status)).toEqual([
      'acknowledged',
      'acknowledged',
    ]);
    // Both switched off, one after the other (in the order the two commands reached the collector).
    const sets = pdu.sets.slice(before);
    expect(sets.map((set) => [set.port, set.command]).sort()).toEqual([
      [6, 2],
      [7, 2],
    ]);
    expect(sets[1]!.at - sets[0]!.at).toBeGreaterThanOrEqual(400);
  });
};
