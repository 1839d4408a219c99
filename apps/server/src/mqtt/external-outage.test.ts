import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { topics } from '@fbox/contracts';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { dbAvailable, testDbKind } from '../test/build-test-app.js';
import { createArea, createFbox, createMaster } from '../test/factories.js';
import { takeExternalBroker, telemetry, waitFor } from '../test/mqtt-client.js';
import {
  processDatabase,
  type ServerProcess,
  seedDatabase,
  startServerProcess,
} from '../test/server-process.js';

const mqttUrl = process.env.TEST_MQTT_URL;

/**
 * With an external broker, what gateways publish while our server is down waits at the broker for
 * its persistent session and is stored when it is back: the server process is killed under load,
 * stays away 5 s, and starts again with the same client id. Every message the broker acknowledged
 * to the gateway is stored once.
 */
(mqttUrl && dbAvailable ? describe : describe.skip)(`external broker outage [${testDbKind}]`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'fbox-outage-'));
  const clientId = `fbox-test-outage-${randomBytes(6).toString('hex')}`;
  let server: ServerProcess | null = null;
  let gateway: MqttClient | null = null;
  let database: Database | null = null;
  let drop: (() => Promise<void>) | null = null;
  takeExternalBroker(mqttUrl!, clientId, async () => {
    await gateway?.endAsync(true);
    await server?.kill('SIGKILL');
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores what was published while the server was away', async () => {
    const target = await processDatabase(dir);
    drop = target.drop;
    database = target.open();
    const fbox = await seedDatabase(database, dir, async (app) =>
      createFbox(app, (await createArea(app, (await createMaster(app)).id)).id),
    );
    const env = {
      ...target.env,
      MQTT_URL: mqttUrl!,
      // Its own group: other tests on the same broker must not take this deployment's messages.
      MQTT_SHARE_GROUP: clientId,
      MQTT_CLIENT_ID: clientId,
      MQTT_SESSION_EXPIRY_SECONDS: '120',
      LOG_LEVEL: 'info',
    };
    const db = database.db;
    const stored = async () =>
      Number(
        (
          await db
            .selectFrom('fbox_samples')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('fbox_id', '=', fbox.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    server = startServerProcess(env, dir);
    // Messages published before the first subscription exists have nobody to go to: start after it.
    const listening = (p: ServerProcess) =>
      waitFor(() => p.output.join('').includes('http listening'), 60_000);
    await listening(server);

    // The gateway talks to the broker (anonymous on the test Mosquitto); the broker acks it.
    gateway = await connectAsync(mqttUrl!, { clientId: `gw-${clientId}`, reconnectPeriod: 0 });
    const gw = gateway;
    const t0 = Date.now() - 60_000;
    const acked = new Set<number>();
    let seq = 0;
    let publishing = true;
    const publisher = (async () => {
      while (publishing) {
        const n = ++seq;
        gw.publish(
          topics.telemetry(fbox.device_id),
          JSON.stringify(telemetry({ seq: n, ts: t0 + n, miners: 5 })),
          { qos: 1 },
          (error) => {
            if (!error) acked.add(n);
          },
        );
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();

    await waitFor(async () => (await stored()) >= 50, 60_000).catch((error: unknown) => {
      throw new Error(`nothing stored:\n${server!.output.join('').slice(-3000)}`, { cause: error });
    });
    await server.kill('SIGKILL');
    const ackedWhenKilled = acked.size;
    const seqWhenKilled = seq;
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const ackedWhileAway = acked.size - ackedWhenKilled;
    server = startServerProcess(env, dir);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    publishing = false;
    await publisher;
    await waitFor(() => acked.size === seq, 10_000);
    await waitFor(async () => (await stored()) >= acked.size, 60_000).catch(() => {});

    const rows = await db
      .selectFrom('fbox_samples')
      .select(['ts', (eb) => eb.fn.countAll<number>().as('n')])
      .where('fbox_id', '=', fbox.id)
      .groupBy('ts')
      .execute();
    const have = new Map(rows.map((r) => [Number(r.ts) - t0, Number(r.n)]));
    const lost = [...acked].filter((n) => !have.has(n));
    const duplicated = [...have.values()].filter((n) => n !== 1);
    expect(ackedWhileAway).toBeGreaterThan(100);
    expect(
      { lost: lost.length, duplicated: duplicated.length },
      `acked ${acked.size}, lost ${lost.slice(0, 20)}, seq at kill ${seqWhenKilled}, stored ${have.size}; server:\n${server.output.join('').slice(-3000)}`,
    ).toEqual({
      lost: 0,
      duplicated: 0,
    });
    if (process.env.INGEST_CRASH_REPORT) {
      console.info(
        JSON.stringify({ acked: acked.size, ackedWhileAway, stored: have.size, lost: lost.length }),
      );
    }
  }, 180_000);
});
