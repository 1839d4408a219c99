import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MinerTelemetry } from '@fbox/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeMiner, type FakeMinerOptions, startFakeMiner } from './cgminer/fake-miner.js';
import { Collector } from './collector.js';
import { parseConfig } from './config.js';
import type { Logger } from './logger.js';
import { recordingLogger } from './test-logger.js';
import { startFakeWhatsminerV2 } from './whatsminer/fake-v2.js';
import { startFakeWhatsminerV3 } from './whatsminer/fake-v3.js';

describe('collector: discovery and polling against fake miners (no cloud)', () => {
  const fakes: FakeMiner[] = [];
  const fake = async (options: FakeMinerOptions) => {
    const started = await startFakeMiner(options);
    fakes.push(started);
    return started;
  };
  afterEach(async () => {
    await Promise.all(fakes.splice(0).map((f) => f.stop()));
  });

  const collectorFor = (ports: number[], stateDir: string, log: Logger, poll = 2) => {
    const config = parseConfig({
      cloud: { mqtt_url: 'mqtt://127.0.0.1:1', device_id: 'FBTEST' },
      scan: ports.map((port) => ({ range: '127.0.0.1', port })),
      concurrency: { poll, scan: 4 },
      timeouts: { connect_ms: 300, request_ms: 700, scan_ms: 500 },
      state_dir: stateDir,
    });
    const collector = new Collector({ config, logger: log });
    const reports: MinerTelemetry[][] = [];
    collector.gateway.report = async (miners) => {
      reports.push(miners);
      return 1;
    };
    return { collector, reports };
  };

  it('finds miners, remembers them, and reports new, moved and vanished ones', async () => {
    const a = await fake({ flavor: 'antminer', id: 'AM-A' });
    const b = await fake({ flavor: 'avalon', id: 'DNA-B' });
    const spare = await fake({ flavor: 'antminer', id: 'SPARE' });
    const nothing = 1; // nothing listens on port 1
    const dir = mkdtempSync(join(tmpdir(), 'collector-state-'));
    const log = recordingLogger();
    const { collector } = collectorFor([a.port, b.port, spare.port, nothing], dir, log.logger);
    expect((await collector.scan()).map((m) => m.reading.sn).sort()).toEqual(['AM-A', 'DNA-B', 'SPARE']);
    expect(
      log
        .messages('miner new')
        .map((m) => m.sn)
        .sort(),
    ).toEqual(['AM-A', 'DNA-B', 'SPARE']);
    const saved = JSON.parse(readFileSync(join(dir, 'miners.json'), 'utf8'));
    expect(saved.miners.map((m: { sn: string }) => m.sn).sort()).toEqual(['AM-A', 'DNA-B', 'SPARE']);

    // AM-A moves to the spare's port; DNA-B goes away.
    await spare.stop();
    await a.stop();
    await b.stop();
    fakes.push(await startFakeMiner({ flavor: 'antminer', id: 'AM-A', port: spare.port }));
    await collector.scan();
    expect(log.messages('miner moved')).toEqual([
      { sn: 'AM-A', from: `127.0.0.1:${a.port}`, to: `127.0.0.1:${spare.port}` },
    ]);
    expect(log.messages('miner vanished').map((m) => m.sn)).toEqual(['DNA-B']);
    expect(log.messages('miner vanished: its address answers as another miner').map((m) => m.sn)).toEqual([
      'SPARE',
    ]);

    // A new collector on the same state directory knows them all from the start.
    const again = collectorFor([spare.port], dir, recordingLogger().logger);
    expect(
      again.collector.registry
        .all()
        .map((m) => m.sn)
        .sort(),
    ).toEqual(['AM-A', 'DNA-B', 'SPARE']);
    await collector.stop();
  });

  it('a hanging or garbage miner is offline with a reason and does not hold up the others', async () => {
    const healthy = await Promise.all(
      ['H1', 'H2', 'H3'].map((id, i) => fake({ flavor: i % 2 ? 'avalon' : 'antminer', id })),
    );
    const hanging = await fake({ flavor: 'antminer', id: 'HANG' });
    const garbage = await fake({ flavor: 'avalon', id: 'GARBAGE' });
    const log = recordingLogger();
    const { collector, reports } = collectorFor(
      [...healthy, hanging, garbage].map((f) => f.port),
      mkdtempSync(join(tmpdir(), 'collector-state-')),
      log.logger,
    );
    await collector.scan();
    hanging.behaviour = 'hang';
    garbage.behaviour = 'garbage';
    const cycle = await collector.pollCycle();
    // Two at a time, 700 ms time-out: the hanging miner holds one slot, the others share the second.
    expect(cycle).toMatchObject({ polled: 5, online: 3, offline: 2 });
    expect(cycle.durationMs).toBeLessThan(1400);
    const report = reports.at(-1)!;
    const bySn = new Map(report.map((m) => [m.sn, m]));
    expect(bySn.get('HANG')).toMatchObject({
      online: false,
      hashrate_realtime: -999,
      model: 'S19j Pro',
      brand: 'Antminer',
    });
    expect(bySn.get('GARBAGE')).toMatchObject({ online: false, brand: 'Avalon' });
    expect(bySn.get('H2')).toMatchObject({ online: true, brand: 'Avalon', ip: '127.0.0.1' });
    expect(collector.offlineReason('HANG')).toMatch(/within 700 ms/);
    expect(collector.offlineReason('GARBAGE')).toMatch(/JSON/);
    expect(
      log
        .messages('miner offline')
        .map((m) => m.sn)
        .sort(),
    ).toEqual(['GARBAGE', 'HANG']);

    // Still failing: not logged again. Back: logged once.
    await collector.pollCycle();
    expect(log.messages('miner offline')).toHaveLength(2);
    garbage.behaviour = 'normal';
    await collector.pollCycle();
    expect(log.messages('miner answers again').map((m) => m.sn)).toEqual(['GARBAGE']);
    await collector.stop();
  });

  it('executes miner.restart on the miner named by sn, once per command', async () => {
    const miner = await fake({ flavor: 'antminer', id: 'R1' });
    const refusing = await fake({ flavor: 'avalon', id: 'R2', refuseRestart: true });
    const { collector } = collectorFor(
      [miner.port, refusing.port],
      mkdtempSync(join(tmpdir(), 'c-')),
      recordingLogger().logger,
    );
    await collector.scan();
    const restart = (id: string, sn: string) =>
      collector.execute({ id, kind: 'miner.restart', target: { sn }, params: {} });
    expect(await restart('c1', 'R1')).toEqual({ id: 'c1', ok: true });
    expect(miner.restarts).toBe(1);
    expect(await restart('c2', 'R2')).toEqual({
      id: 'c2',
      ok: false,
      error: "Access denied to 'restart' command",
    });
    expect(await restart('c3', 'NOPE')).toEqual({ id: 'c3', ok: false, error: 'unknown miner sn NOPE' });
    expect(
      await collector.execute({ id: 'c4', kind: 'miner.pool', target: { sn: 'R1' }, params: {} }),
    ).toEqual({
      id: 'c4',
      ok: false,
      error: 'invalid params: pool_address: Invalid input: expected string, received undefined',
    });
    await collector.stop();
  });

  it('probes a host on each protocol’s own port until one answers, and maps outlets by serial, then IP', async () => {
    const wm = await startFakeWhatsminerV2({ id: 'WM-1' });
    const v3 = await startFakeWhatsminerV3({ id: 'WM3-1' });
    const cg = await fake({ flavor: 'antminer', id: 'AM-1' });
    const configWith = (scan: { range: string; ports?: number[] }[]) =>
      parseConfig({
        cloud: { mqtt_url: 'mqtt://127.0.0.1:1', device_id: 'FBTEST' },
        scan,
        timeouts: { connect_ms: 300, request_ms: 700, scan_ms: 500 },
        protocols: {
          whatsminer: { port: wm.port },
          cgminer: { port: cg.port },
          whatsminer_v3: { port: v3.port },
        },
        pdus: [{ name: 'rack-a', host: '127.0.0.2', vendor: 'apc', outlets: 8, first_outlet: 1 }],
        outlet_map: { 'WM3-1': 4, '127.0.0.1': 7 },
      });
    // On the protocols' own ports a host is one miner: the Whatsminer answers first, the rest are not asked.
    const ownPorts = new Collector({ config: configWith([{ range: '127.0.0.1' }]), noStateFile: true });
    expect((await ownPorts.scan()).map((m) => m.reading.sn)).toEqual(['WM-1']);
    expect([cg.commands, v3.commands]).toEqual([[], []]);
    await ownPorts.stop();
    // Ports a scan entry names are each probed with every protocol.
    const config = configWith([{ range: '127.0.0.1' }, { range: '127.0.0.1', ports: [cg.port, v3.port] }]);
    const collector = new Collector({ config, noStateFile: true });
    const reports: MinerTelemetry[][] = [];
    collector.gateway.report = async (miners) => {
      reports.push(miners);
      return 1;
    };
    try {
      const found = await collector.scan();
      expect(found.map((m) => [m.reading.sn, m.protocol]).sort()).toEqual([
        ['AM-1', 'cgminer'],
        ['WM-1', 'whatsminer'],
        ['WM3-1', 'whatsminer-v3'],
      ]);
      expect(cg.commands.filter((c) => c === 'version')).toHaveLength(1);
      await collector.pollCycle();
      const outlets = new Map(reports.at(-1)!.map((m) => [m.sn, m.outlet]));
      expect(Object.fromEntries(outlets)).toEqual({ 'AM-1': 7, 'WM-1': 7, 'WM3-1': 4 });

      const config = (params: Record<string, unknown>) =>
        collector.execute({ id: 'cfg', kind: 'fbox.config', target: {}, params });
      expect(await config({ reporting_interval_s: 15, delay_switch_ms: 500 })).toEqual({
        id: 'cfg',
        ok: true,
      });
      expect(collector.pollIntervalMs).toBe(15_000);
      expect(collector.commands.delaySwitchMs).toBe(500);
    } finally {
      await collector.stop();
      await Promise.all([wm.stop(), v3.stop()]);
    }
  });
});
