import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '@fbox/simulator';
import { afterAll, expect, it } from 'vitest';
import type { Database } from '../../db/database.js';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createArea, createFbox, createMaster } from '../../test/factories.js';
import { waitFor } from '../../test/mqtt-client.js';
import {
  freePort,
  processDatabase,
  type ServerProcess,
  seedDatabase,
  startServerProcess,
} from '../../test/server-process.js';

type Simulator = Awaited<ReturnType<typeof startSimulator>>;

/**
 * A miner log export survives kill -9 of the server running it (issue 15): the real server process
 * starts the export and asks the gateway for the first four logs (its per-gateway bound); the
 * gateway holds them unanswered; the process is killed. Started again on the same database and
 * broker port, the job carries on from what the database holds: the four requests in flight at
 * the crash time out with their reason, the other four are asked and arrive, and the export
 * finishes with a zip of those four.
 */
describeDb('miner log export survives kill -9 mid-export', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fbox-logs-crash-'));
  let server: ServerProcess | undefined;
  let simulator: Simulator | undefined;
  let check: Database | undefined;
  let restarted: TestApp | undefined;
  let drop: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await server?.kill('SIGKILL');
    await simulator?.stop();
    await restarted?.close();
    await check?.close();
    await drop?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('resumes after the restart and finishes, the requests lost in the crash failing as unanswered', async () => {
    const database = await processDatabase(dir);
    drop = database.drop;
    const master = { username: 'logcrash', password: 'logcrash-pass-1' };
    const seeded = await seedDatabase(database.open(), dir, async (app) => {
      const owner = await createMaster(app, master);
      const area = await createArea(app, owner.id, 'Crash Mine');
      const fbox = await createFbox(app, area.id, { name: 'Box L', tanks: 0 });
      return { areaId: area.id, fbox };
    });
    const [port, mqttPort] = [await freePort(), await freePort()];
    server = startServerProcess({ ...database.env, PORT: String(port), MQTT_PORT: String(mqttPort) }, dir);
    // Listening on HTTP means its broker is up too (the app starts it before it listens).
    await waitFor(
      () =>
        fetch(`http://127.0.0.1:${port}/index/index/login`).then(
          () => true,
          () => false,
        ),
      60_000,
    ).catch((error: unknown) => {
      throw new Error(`the server did not start:\n${server?.output.join('')}`, { cause: error });
    });
    check = database.open();
    const db = check.db;
    const miners = () =>
      db.selectFrom('miner_state').select('miner_id').where('fbox_id', '=', seeded.fbox.id).execute();

    simulator = await startSimulator({
      brokerUrl: `mqtt://127.0.0.1:${mqttPort}`,
      intervalMs: 1000,
      gateways: [
        {
          deviceId: seeded.fbox.device_id,
          username: seeded.fbox.mqtt_username,
          password: seeded.fbox.mqtt_password,
          tanks: 0,
          minersPerTank: 8,
        },
      ],
    });
    await waitFor(async () => (await miners()).length === 8, 60_000);
    const gateway = simulator.gateways[0]!;
    gateway.ignoreCommands = true;

    const login = await fetch(`http://127.0.0.1:${port}/index/index/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(master),
    });
    const token = ((await login.json()) as { data: { logintoken: string } }).data.logintoken;
    const started = await fetch(`http://127.0.0.1:${port}/ff-plat-api/api/admin/log/export`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', logintoken: token },
      body: JSON.stringify({
        area_id: seeded.areaId,
        scope: 'fbox',
        ids: [seeded.fbox.id],
        from: Date.now() - 3_600_000,
        to: Date.now(),
      }),
    });
    const created = (await started.json()) as { code: number; data: { id: number } };
    expect(created.code, JSON.stringify(created)).toBe(1);
    const id = created.data.id;
    const states = async () =>
      (await db.selectFrom('log_export_miners').select('state').where('export_id', '=', id).execute()).map(
        (r) => r.state,
      );

    // The process asked for four logs (its bound per gateway) and waits for them: kill it.
    await waitFor(async () => (await states()).filter((s) => s === 'requested').length === 4, 30_000);
    const subscribedBefore = gateway.stats().subscribed;
    await server.kill('SIGKILL');
    expect((await states()).sort()).toEqual([...Array(4).fill('queued'), ...Array(4).fill('requested')]);

    // Started again on the same database and broker port, a minute past the lost requests' deadline.
    gateway.ignoreCommands = false;
    restarted = await buildTestApp({
      database: database.open(),
      mqtt: 'embedded',
      config: { mqttPort, mqttPortExplicit: true },
    });
    const app = restarted.app;
    restarted.clock.ms = Date.now() + 61_000;
    // The gateway reconnects by itself; wait for its telemetry on the new broker.
    const seen = Number(
      (
        await db
          .selectFrom('fbox_state')
          .select('last_seen_at')
          .where('fbox_id', '=', seeded.fbox.id)
          .executeTakeFirst()
      )?.last_seen_at ?? 0,
    );
    await waitFor(async () => {
      await app.ingest.flush();
      const row = await app.db
        .selectFrom('fbox_state')
        .select('last_seen_at')
        .where('fbox_id', '=', seeded.fbox.id)
        .executeTakeFirst();
      return Number(row?.last_seen_at ?? 0) > seen;
    }, 30_000);
    // And until the new broker acknowledged its command subscription: a command published before
    // that reaches no one (the broker keeps no session across the restart), and with the test's
    // clock standing still it would never time out. Telemetry it had queued can arrive first.
    await waitFor(async () => gateway.stats().subscribed >= subscribedBefore + 1, 30_000);
    await waitFor(async () => {
      await app.commands.expire();
      await app.ingest.flush();
      await app.logExportEngine.run();
      const [row] = await app.db.selectFrom('log_exports').select('status').where('id', '=', id).execute();
      return row?.status === 'finished';
    }, 90_000).catch(async (error: unknown) => {
      // Where it stood, to tell a slow machine from a stuck export.
      // Each request's command (sent, acknowledged…) and parts, and what the gateway saw.
      const miners = await app.db
        .selectFrom('log_export_miners as m')
        .leftJoin('commands as c', 'c.id', 'm.command_id')
        .select(['m.state', 'm.error', 'm.command_id', 'c.status', 'c.sent_at', 'c.acked_at'])
        .select((eb) =>
          eb
            .selectFrom('log_export_parts as p')
            .whereRef('p.command_id', '=', 'm.command_id')
            .select(eb.fn.countAll().as('n'))
            .as('parts'),
        )
        .where('m.export_id', '=', id)
        .execute();
      throw new Error(
        `the export did not finish: ${JSON.stringify(miners)}; gateway ${JSON.stringify(gateway.stats())}`,
        { cause: error },
      );
    });

    const done = await app.db
      .selectFrom('log_exports')
      .select(['status', 'total', 'done', 'failed'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(done).toEqual({ status: 'finished', total: 8, done: 4, failed: 4 });
    const failed = await app.db
      .selectFrom('log_export_miners')
      .select('error')
      .where('export_id', '=', id)
      .where('state', '=', 'failed')
      .execute();
    expect(failed.map((f) => f.error)).toEqual(Array(4).fill('@logExport.noAnswer'));
    const parts = await app.db
      .selectFrom('log_export_parts')
      .innerJoin('log_export_miners', 'log_export_miners.command_id', 'log_export_parts.command_id')
      .select(['log_export_parts.data'])
      .where('log_export_miners.export_id', '=', id)
      .execute();
    expect(parts.map((p) => p.data).join('')).toMatch(/cgminer: GHS 5s=/);
    // A real server process started, killed and followed by another: its waits set the pace.
  }, 180_000);
});
