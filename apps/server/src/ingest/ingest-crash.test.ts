import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { topics } from '@fbox/contracts';
import { connect, type MqttClient } from 'mqtt';
import { afterAll, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { describeDb } from '../test/build-test-app.js';
import { createArea, createFbox, createMaster } from '../test/factories.js';
import { telemetry, waitFor } from '../test/mqtt-client.js';
import {
  freePort,
  processDatabase,
  type ServerProcess,
  seedDatabase,
  startServerProcess,
} from '../test/server-process.js';

const gatewayCount = 2;
const minersPerMessage = 20;
const kills = 3;

/** A gateway publishing QoS 1 telemetry as fast as the server acknowledges it. */
class FloodingGateway {
  readonly acked = new Set<number>();
  private seq = 0;
  private inFlight = 0;
  private stopped = false;
  private readonly client: MqttClient;

  constructor(
    url: string,
    readonly fbox: { id: number; device_id: string; mqtt_username: string; mqtt_password: string },
    /** Message `seq` n is stamped `t0 + n`: every message has its own ts. */
    private readonly t0: number,
  ) {
    this.client = connect(url, {
      username: fbox.mqtt_username,
      password: fbox.mqtt_password,
      clientId: fbox.device_id,
      reconnectPeriod: 100,
      connectTimeout: 2000,
    });
    this.client.on('error', () => {});
    void this.run();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      // Bounded in flight, like a real gateway; while the server is down this waits.
      if (!this.client.connected || this.inFlight >= 50) {
        await new Promise((resolve) => setTimeout(resolve, 2));
        continue;
      }
      const seq = ++this.seq;
      const message = telemetry({ seq, ts: this.t0 + seq, miners: minersPerMessage });
      this.inFlight++;
      this.client.publish(
        topics.telemetry(this.fbox.device_id),
        JSON.stringify(message),
        { qos: 1 },
        (error) => {
          this.inFlight--;
          // The callback of a QoS 1 publish runs on its PUBACK: the server said it has it.
          if (!error) this.acked.add(seq);
        },
      );
      if (seq % 20 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Stops publishing and waits (a while) for what is in flight to be acknowledged. */
  async stop(): Promise<void> {
    this.stopped = true;
    await waitFor(() => this.inFlight === 0, 20_000).catch(() => {});
    this.client.end(true);
  }
}

/**
 * DESIGN §4, "nothing acknowledged is lost": the real server process ingests telemetry published
 * at full speed and is killed with SIGKILL at random moments, then started again on the same
 * database. Every message a gateway got a PUBACK for must be stored exactly once: its box sample,
 * and all its miner samples, once.
 */
describeDb('ingest survives kill -9', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fbox-ingest-crash-'));
  let server: ServerProcess | null = null;
  let database: Database | null = null;
  let drop: (() => Promise<void>) | null = null;
  const gateways: FloodingGateway[] = [];
  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.stop()));
    await server?.kill('SIGKILL');
    await database?.close();
    await drop?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores every acknowledged message exactly once across crashes', async () => {
    const target = await processDatabase(dir);
    drop = target.drop;
    database = target.open();
    const fboxes = await seedDatabase(database, dir, async (app) => {
      const area = await createArea(app, (await createMaster(app)).id);
      return Promise.all(Array.from({ length: gatewayCount }, () => createFbox(app, area.id)));
    });
    const mqttPort = await freePort();
    const start = () => startServerProcess({ ...target.env, MQTT_PORT: String(mqttPort) }, dir);
    server = start();
    const t0 = Date.now() - 60_000;
    for (const fbox of fboxes) {
      gateways.push(new FloodingGateway(`mqtt://127.0.0.1:${mqttPort}`, fbox, t0));
    }
    const acked = () => gateways.reduce((n, g) => n + g.acked.size, 0);

    const ackedAtKill: number[] = [];
    for (let k = 0; k < kills; k++) {
      // Killed while messages are flowing: a random moment after some more were acknowledged.
      const before = acked();
      await waitFor(() => acked() >= before + 150, 90_000).catch((error: unknown) => {
        throw new Error(`no acks after start ${k}:\n${server!.output.join('').slice(-3000)}`, {
          cause: error,
        });
      });
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 300));
      await server.kill('SIGKILL');
      ackedAtKill.push(acked());
      server = start();
    }
    const last = acked();
    await waitFor(() => acked() >= last + 150, 90_000);
    await Promise.all(gateways.map((g) => g.stop()));
    await server.kill('SIGTERM');

    for (const gateway of gateways) {
      const stored = await database.db
        .selectFrom('fbox_samples')
        .select(['ts', (eb) => eb.fn.countAll<number>().as('n')])
        .where('fbox_id', '=', gateway.fbox.id)
        .groupBy('ts')
        .execute();
      const minerRows = await database.db
        .selectFrom('miner_samples')
        .innerJoin('miners', 'miners.id', 'miner_samples.miner_id')
        .select(['miner_samples.ts', (eb) => eb.fn.countAll<number>().as('n')])
        .where('miners.fbox_id', '=', gateway.fbox.id)
        .groupBy('miner_samples.ts')
        .execute();
      const boxes = new Map(stored.map((r) => [Number(r.ts) - t0, Number(r.n)]));
      const miners = new Map(minerRows.map((r) => [Number(r.ts) - t0, Number(r.n)]));
      const lost = [...gateway.acked].filter(
        (seq) => !boxes.has(seq) || miners.get(seq) !== minersPerMessage,
      );
      const duplicated = [...boxes].filter(([seq, n]) => n !== 1 || miners.get(seq) !== minersPerMessage);
      expect(
        { lost: lost.length, duplicated: duplicated.length },
        `acked at each kill: ${ackedAtKill}`,
      ).toEqual({
        lost: 0,
        duplicated: 0,
      });
      expect(gateway.acked.size).toBeGreaterThan(150);
      if (process.env.INGEST_CRASH_REPORT) {
        console.info(
          JSON.stringify({ acked: gateway.acked.size, stored: boxes.size, ackedAtKill, lost, duplicated }),
        );
      }
    }
  }, 240_000);
});
