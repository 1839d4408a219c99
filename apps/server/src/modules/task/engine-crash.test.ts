import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, type MqttClient } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { openSqlite } from '../../db/database.js';
import { testDbKind } from '../../test/build-test-app.js';
import { waitFor } from '../../test/mqtt-client.js';
import { freePort } from '../../test/server-process.js';
import { seedPduTask } from '../../test/task-engine-harness.js';

const repoRoot = fileURLToPath(new URL('../../../../../', import.meta.url));
const serverMain = join(repoRoot, 'apps/server/src/main.ts');

interface Received {
  id: string;
  outlet: number;
  status: string;
}

/**
 * Crash test (DESIGN §8): the real server process runs a PDU task against a gateway this test plays;
 * it is killed with SIGKILL in the middle of a batch and started again on the same database file.
 * Every outlet is switched off once and on once: no action repeated, none lost — in the history
 * items and in the commands the gateway executed (a redelivered id is executed once, as a gateway
 * must).
 */
(testDbKind === 'sqlite' ? describe : describe.skip)('task engine survives kill -9 mid-batch', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fbox-crash-'));
  let server: ChildProcess | null = null;
  let gateway: MqttClient | null = null;
  afterAll(async () => {
    gateway?.end(true);
    if (server && server.exitCode === null) server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('restarts, finishes the task, and each outlet is switched off once and on once', async () => {
    const file = join(dir, 'fbox.db');
    const mqttPort = await freePort();
    const minerCount = 8;

    // The database as an operator left it: a PDU task over 8 offline miners, due now.
    const setup = await buildApp({
      database: openSqlite(file),
      logger: false,
      seed: false,
      config: { demo: false, webDist: join(dir, 'no-web'), dataDir: dir },
    });
    const { fbox, minerIds } = await seedPduTask(setup, {
      name: 'Crash',
      snPrefix: 'C',
      minerCount,
    });
    await setup.close();

    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const key of ['MQTT_URL', 'DATABASE_URL', 'TEST_DB', 'PORT', 'MQTT_PORT']) delete env[key];
    Object.assign(env, {
      DATA_DIR: dir,
      DEMO: '0',
      HOST: '127.0.0.1',
      PORT: '0',
      MQTT_PORT: String(mqttPort),
      TASK_LEASE_SECONDS: '2',
      COMMAND_TIMEOUT_SECONDS: '120',
      LOG_LEVEL: 'warn',
      WEB_DIST: join(dir, 'no-web'),
    });
    const output: string[] = [];
    const startServer = () => {
      const child = spawn(process.execPath, ['--import', 'tsx', serverMain], {
        cwd: repoRoot,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout?.on('data', (d: Buffer) => void output.push(d.toString()));
      child.stderr?.on('data', (d: Buffer) => void output.push(d.toString()));
      return child;
    };

    // The gateway: executes each command id once, acknowledges every delivery.
    const received: Received[] = [];
    const executed = new Map<string, Received>();
    let kill: (() => void) | null = null;
    server = startServer();
    const connectGateway = () =>
      connect(`mqtt://127.0.0.1:${mqttPort}`, {
        username: fbox.mqtt_username,
        password: fbox.mqtt_password,
        clientId: fbox.device_id,
        reconnectPeriod: 200,
        connectTimeout: 2000,
      });
    await waitFor(async () => {
      const probe = connectGateway();
      const ok = await new Promise<boolean>((resolve) => {
        probe.once('connect', () => resolve(true));
        probe.once('error', () => resolve(false));
        setTimeout(() => resolve(false), 1500);
      });
      if (ok) gateway = probe;
      else probe.end(true);
      return ok;
    }, 60_000);
    const gw = gateway!;
    gw.on('message', (_topic, payload) => {
      const command = JSON.parse(payload.toString()) as {
        id: string;
        target: { outlet: number };
        params: { status: string };
      };
      const record = { id: command.id, outlet: command.target.outlet, status: command.params.status };
      received.push(record);
      if (!executed.has(command.id)) executed.set(command.id, record);
      gw.publish(`fbox/${fbox.device_id}/cmd/ack`, JSON.stringify({ id: command.id, ok: true }), { qos: 1 });
      if (executed.size === 5) kill?.();
    });
    gw.on('connect', () => gw.subscribe(`fbox/${fbox.device_id}/cmd`, { qos: 1 }));
    await gw.subscribeAsync(`fbox/${fbox.device_id}/cmd`, { qos: 1 });

    // Killed in the middle of the third batch (after the 5th distinct command).
    const killed = new Promise<void>((resolve) => {
      kill = () => {
        kill = null;
        server!.kill('SIGKILL');
        resolve();
      };
    });
    await killed;
    await new Promise((resolve) => server!.once('exit', resolve));
    const beforeRestart = executed.size;
    expect(beforeRestart).toBeGreaterThanOrEqual(5);
    expect(beforeRestart).toBeLessThan(2 * minerCount);

    server = startServer();
    const db = openSqlite(file);
    try {
      await waitFor(async () => {
        const open = await db.db
          .selectFrom('task_items')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', '=', 'acknowledged')
          .executeTakeFirstOrThrow();
        return Number(open.n) === 2 * minerCount && executed.size === 2 * minerCount;
      }, 90_000).catch((error: unknown) => {
        throw new Error(
          `task did not finish after the restart; server output:\n${output.join('').slice(-4000)}`,
          {
            cause: error,
          },
        );
      });
      // Deliveries beyond the executed ones are re-sends of the same ids after the restart.
      expect(received.length).toBeGreaterThanOrEqual(executed.size);
      server.kill('SIGTERM');
      await new Promise((resolve) => server!.once('exit', resolve));

      const items = await db.db.selectFrom('task_items').selectAll().orderBy('id').execute();
      expect(items).toHaveLength(2 * minerCount);
      expect(items.every((i) => i.status === 'acknowledged')).toBe(true);
      for (const id of minerIds) {
        expect(items.filter((i) => i.miner_id === id).map((i) => i.action)).toEqual([
          'power_off',
          'power_on',
        ]);
      }
      const commands = await db.db.selectFrom('commands').select(['id', 'status']).execute();
      expect(commands).toHaveLength(2 * minerCount);
      expect(new Set(commands.map((c) => c.id))).toEqual(new Set(items.map((i) => i.command_id)));
      // The gateway executed exactly these commands: each outlet off once and on once.
      expect(new Set(executed.keys())).toEqual(new Set(items.map((i) => i.command_id)));
      for (let outlet = 1; outlet <= minerCount; outlet++) {
        const switches = [...executed.values()].filter((r) => r.outlet === outlet).map((r) => r.status);
        expect(switches.sort()).toEqual(['off', 'on']);
      }
      // Power-on never came before its power-off's wait, even across the crash.
      for (const id of minerIds) {
        const [off, on] = items.filter((i) => i.miner_id === id);
        expect(on!.created_at - off!.created_at).toBeGreaterThanOrEqual(2000);
      }
    } finally {
      await db.close();
    }
  }, 180_000);
});
