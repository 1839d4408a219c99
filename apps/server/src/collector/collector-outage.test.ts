import { mkdtempSync, readdirSync } from 'node:fs';
import { createServer, connect as netConnect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Collector, type FakeMiner, parseConfig, startCollector, startFakeMiner } from '@fbox/collector';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../test/build-test-app.js';
import { createArea, createFbox, createMaster } from '../test/factories.js';
import { brokerUrl, waitFor } from '../test/mqtt-client.js';

/**
 * The collector through a cloud outage: fake miners → the collector → a TCP proxy → the embedded
 * broker → ingest. The proxy is cut (its connections destroyed, new ones closed at once) for
 * half a minute of polls, then restored: every sample taken during the cut reaches the server with its
 * original `ts`, once. Then again with the collector restarted during the cut, which must send what
 * the stopped one buffered on disk. The embedded broker only: the path under test is the
 * collector's, and a second broker would double a test that waits on real poll intervals.
 */
describeDb('site collector through a cloud outage', () => {
  const POLL_S = 5; // the config's minimum
  let t: TestApp;
  let fbox: Awaited<ReturnType<typeof createFbox>>;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let collector: Collector | undefined;
  const fakes: FakeMiner[] = [];
  const stateDir = mkdtempSync(join(tmpdir(), 'collector-outage-'));
  /** Every report the collector made (sent at once or buffered): its `ts`, and when. */
  const reports: { ts: number; buffered: boolean; at: number }[] = [];

  /** The origin of the collectors' clock: near the app's (ingest refuses times far from its own). */
  let origin = 0;

  const start = () => {
    const noop = () => {};
    const debug = (obj: object, msg?: string) => {
      const { ts } = obj as { ts?: unknown };
      if (typeof ts === 'number' && (msg === 'report sent' || msg === 'report buffered'))
        reports.push({ ts, buffered: msg === 'report buffered', at: Date.now() });
    };
    return startCollector({
      config: parseConfig({
        cloud: {
          mqtt_url: proxy.url,
          device_id: fbox.device_id,
          username: fbox.mqtt_username,
          password: fbox.mqtt_password,
        },
        scan: fakes.map((fake) => ({ range: fake.host, port: fake.port })),
        poll_interval_s: POLL_S,
        timeouts: { connect_ms: 500, request_ms: 1000, scan_ms: 1000 },
        state_dir: stateDir,
      }),
      now: () => t.clock.now() + (Date.now() - origin),
      gateway: { reconnectPeriodMs: 200, maxReconnectPeriodMs: 1000 },
      logger: { debug, info: noop, warn: noop, error: noop },
    });
  };

  /** Stored samples by `ts`: box rows and miner rows. */
  const samples = async () => {
    await t.app.ingest.flush();
    const boxes = await t.app.db
      .selectFrom('fbox_samples')
      .select(['ts', (eb) => eb.fn.countAll<number>().as('n')])
      .where('fbox_id', '=', fbox.id)
      .groupBy('ts')
      .execute();
    const miners = await t.app.db
      .selectFrom('miner_samples')
      .innerJoin('miners', 'miners.id', 'miner_samples.miner_id')
      .select(['miner_samples.ts', (eb) => eb.fn.countAll<number>().as('n')])
      .where('miners.fbox_id', '=', fbox.id)
      .groupBy('miner_samples.ts')
      .execute();
    return {
      boxes: new Map(boxes.map((row) => [Number(row.ts), Number(row.n)])),
      miners: new Map(miners.map((row) => [Number(row.ts), Number(row.n)])),
    };
  };

  /** Every report made so far is stored once: one box sample and one sample per miner, at its `ts`. */
  const expectAllStoredOnce = async () => {
    // On time-out the comparison below names the samples missing.
    await waitFor(async () => {
      const { boxes } = await samples();
      return reports.every((report) => boxes.has(report.ts));
    }, 15_000).catch(() => {});
    const { boxes, miners } = await samples();
    expect(reports.map((report) => [report.ts, boxes.get(report.ts), miners.get(report.ts)])).toEqual(
      reports.map((report) => [report.ts, 1, fakes.length]),
    );
    // Nothing else arrived either (no report twice under another seq, no stray one).
    expect([...boxes.keys()].sort()).toEqual(reports.map((report) => report.ts).sort());
  };

  /** Waits until `count` more reports were buffered. */
  const bufferedAfter = async (from: number, count: number) => {
    await waitFor(
      () => reports.slice(from).filter((report) => report.buffered).length >= count,
      (count + 3) * POLL_S * 1000,
    );
    return reports.slice(from);
  };

  beforeAll(async () => {
    t = await buildTestApp({ mqtt: 'embedded' });
    const areaId = (await createArea(t.app, (await createMaster(t.app)).id)).id;
    fbox = await createFbox(t.app, areaId, { kind: 'air', tanks: 0 });
    fakes.push(await startFakeMiner({ flavor: 'antminer', id: 'a1b2c3d4e5f6c001' }));
    fakes.push(await startFakeMiner({ flavor: 'avalon', id: '020100008c5dc002' }));
    const [host, port] = brokerUrl(t.app).replace('mqtt://', '').split(':');
    proxy = await startProxy(host!, Number(port));
    origin = Date.now();
    collector = await start();
  });

  afterAll(async () => {
    await collector?.stop();
    await Promise.all(fakes.map((fake) => fake.stop()));
    await proxy?.close();
    await t?.close();
  });

  it('loses no sample while the cloud is cut for half a minute, and stores none twice', async () => {
    await waitFor(() => reports.some((report) => !report.buffered), 15_000);
    const beforeCut = reports.length;
    proxy.cut();
    const cutAt = Date.now();
    // Seven polls made while cut: six intervals, half a minute (the outbox's path is the same for
    // longer cuts; a minute doubled the file's time on each database).
    const during = await bufferedAfter(beforeCut, 7);
    expect(Date.now() - cutAt).toBeGreaterThanOrEqual(6 * POLL_S * 1000 - 500);
    // The cut was real: the samples wait on disk, and none of them reached the server.
    expect(collector!.gateway.stats.buffered).toBeGreaterThanOrEqual(during.length);
    expect(readdirSync(join(stateDir, 'outbox')).some((name) => name.endsWith('.jsonl'))).toBe(true);
    const { boxes } = await samples();
    expect(during.filter((report) => boxes.has(report.ts))).toEqual([]);

    proxy.restore();
    await expectAllStoredOnce();
    await waitFor(() => collector!.gateway.stats.buffered === 0, 5000);
    expect(collector!.gateway.stats).toMatchObject({ dropped: 0, expired: 0 });
  }, 120_000);

  it('sends what a collector stopped during the cut had buffered once a new one starts', async () => {
    const beforeCut = reports.length;
    proxy.cut();
    const during = await bufferedAfter(beforeCut, 2);
    await collector!.stop();
    collector = undefined;
    const { boxes } = await samples();
    expect(during.filter((report) => boxes.has(report.ts))).toEqual([]);

    proxy.restore();
    collector = await start();
    await expectAllStoredOnce();
    // The new collector's own reports come after the old one's backlog.
    await waitFor(() => reports.length > beforeCut + during.length, 10_000);
    await expectAllStoredOnce();
  }, 45_000);
});

/**
 * A TCP proxy to the broker that can be cut: `cut` destroys every connection through it and closes
 * new ones at once (the collector sees its connection drop and its reconnects fail), `restore`
 * lets them through again.
 */
const startProxy = async (host: string, port: number) => {
  const sockets = new Set<Socket>();
  let cut = false;
  const server = createServer((client) => {
    if (cut) {
      client.destroy();
      return;
    }
    const upstream = netConnect(port, host);
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', close).on('close', close);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('proxy has no port');
  return {
    url: `mqtt://127.0.0.1:${address.port}`,
    cut: () => {
      cut = true;
      for (const socket of sockets) socket.destroy();
    },
    restore: () => {
      cut = false;
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
