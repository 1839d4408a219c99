// The common set-up of the ingest benches: a built server on a fresh SQLite folder (or, with
// `pgUrl`, a fresh PostgreSQL schema) with its embedded broker, one mine of `boxes` FBOXes, and the MQTT publishers in a forked child process (one client
// per gateway) ready to publish rounds of telemetry of `minersPerBox` miners each.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBenchApp } from './bench-app.mjs';
import { openBenchDatabase } from './http-latency.mjs';

/**
 * Starts the server and the publishers. `prepare(app, area)` runs after the mine exists and before
 * its boxes are created (e.g. to set its alert rules).
 */
export const startIngestBench = async ({
  boxes,
  minersPerBox,
  pgUrl,
  jobs = false,
  prepare = async () => {},
}) => {
  const pgDatabase = pgUrl ? await openBenchDatabase('postgres', pgUrl, 'fbox-bench-ingest') : undefined;
  const dir = pgDatabase?.dataDir ?? mkdtempSync(join(tmpdir(), 'fbox-bench-'));
  const app = await buildBenchApp({
    dir,
    mqtt: true,
    jobs,
    database: pgDatabase?.database,
    databaseUrl: pgUrl,
  });

  const owner = await app.users.create({ username: 'bench', password: 'bench-password', is_master: true });
  const area = await app.areas.create(owner, { area_name: 'Bench' });
  await prepare(app, area);
  const gateways = [];
  for (let b = 0; b < boxes; b++) {
    const fbox = await app.devices.createFbox(area.id, { name: `Box ${b}`, kind: 'immersion', tanks: 4 });
    gateways.push({ box: b, username: fbox.mqtt_username, password: fbox.mqtt_password });
  }
  const deviceIds = (await app.db.selectFrom('fboxes').select(['device_id']).orderBy('id').execute()).map(
    (r) => r.device_id,
  );
  for (const g of gateways) g.deviceId = deviceIds[g.box];

  // The publishers: a child process, one MQTT client per gateway; one request at a time.
  const publisher = fork(fileURLToPath(new URL('./ingest-publisher.mjs', import.meta.url)), {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const publisherExit = new Promise((resolve) => publisher.once('exit', resolve));
  const request = (msg, expect) =>
    new Promise((resolve, reject) => {
      const onExit = (code) => reject(new Error(`publisher exited (${code}) awaiting ${expect}`));
      publisher.once('exit', onExit);
      publisher.once('message', (m) => {
        publisher.off('exit', onExit);
        if (m.type === expect) resolve(m);
        else reject(new Error(`publisher: ${m.message ?? m.type}`));
      });
      publisher.send(msg);
    });
  await request(
    { type: 'init', url: `mqtt://127.0.0.1:${app.mqttBroker.port}`, minersPerBox, gateways },
    'ready',
  );
  return {
    app,
    area,
    dir,
    /** The PostgreSQL schema, when on PostgreSQL; `dropDatabase` drops it after `stop({ keepDir })`. */
    schema: pgDatabase?.schema,
    dropDatabase: async () => {
      rmSync(dir, { recursive: true, force: true });
      await pgDatabase?.cleanup();
    },
    /** Publishes `count` rounds from sequence `from`; resolves with the publisher's peak RSS. */
    publishRounds: (from, count) => request({ type: 'publish', from, count }, 'published'),
    /** Publishes open-loop at a fixed rate for a while (see the publisher's `stream`). */
    stream: (options) => request({ type: 'stream', ...options }, 'streamed'),
    /** Resolves once ingest has counted `n` samples. */
    waitSamples: async (n) => {
      while (app.ingest.stats().samples < n) await new Promise((r) => setTimeout(r, 5));
    },
    /**
     * Stops the publishers (failing if they failed; `force`: without waiting for acknowledgements)
     * and the server; `keepDir` leaves the database.
     */
    stop: async ({ keepDir = false, force = false } = {}) => {
      publisher.send({ type: 'end', force });
      const code = await publisherExit;
      await app.close();
      if (!keepDir) {
        rmSync(dir, { recursive: true, force: true });
        await pgDatabase?.cleanup();
      }
      if (code !== 0) throw new Error(`publisher exited with ${code}`);
    },
  };
};
