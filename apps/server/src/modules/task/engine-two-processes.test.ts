import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { type Database, openPostgres } from '../../db/database.js';
import { pgUrl, testDbKind } from '../../test/build-test-app.js';
import { waitFor } from '../../test/mqtt-client.js';
import { adminQuery } from '../../test/server-process.js';
import { seedPduTask } from '../../test/task-engine-harness.js';

const repoRoot = fileURLToPath(new URL('../../../../../', import.meta.url));
const serverMain = join(repoRoot, 'apps/server/src/main.ts');
const mqttUrl = process.env.TEST_MQTT_URL;

interface Received {
  id: string;
  outlet: number;
  status: string;
}

/**
 * Two real server processes (DESIGN §8) on one PostgreSQL database and one external broker (the
 * shared subscription of MQTT_URL), running a PDU task against a gateway this test plays: each
 * outlet is switched off exactly once and on exactly once — in the history items, in the command
 * rows and in the commands the gateway executed (de-duplicated by id, as a gateway must) — and both
 * processes took part. Which process evaluated the task is not stored by the server; the test
 * records it with triggers of its own on the test schema (each claim of the task, and the lease
 * holder at each item's insert). Mid-task the process doing the work is paused with SIGSTOP until
 * the other one has acted, so both take part (left alone, one process tends to do all of it).
 * The two servers share a subscription group of their own (MQTT_SHARE_GROUP), so other tests on the
 * same broker do not take their acks.
 */
(testDbKind === 'postgres' && mqttUrl ? describe : describe.skip)(
  'task engine in two server processes on PostgreSQL',
  () => {
    // Made in the test, not at collection: a skipped suite leaves nothing behind.
    let dir: string | null = null;
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const servers: ChildProcess[] = [];
    let gateway: MqttClient | null = null;
    let database: Database | null = null;
    let schemaCreated = false;
    afterAll(async () => {
      gateway?.end(true);
      for (const server of servers) {
        if (server.exitCode === null && server.signalCode === null) {
          const exited = new Promise((resolve) => server.once('exit', resolve));
          server.kill('SIGKILL');
          await exited;
        }
      }
      await database?.close();
      if (schemaCreated) await adminQuery(`drop schema if exists ${schema} cascade`);
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('each outlet is switched off once and on once, and both processes take part', async () => {
      const minerCount = 8;
      const workDir = mkdtempSync(join(tmpdir(), 'fbox-twoproc-'));
      dir = workDir;
      await adminQuery(`create schema ${schema}`);
      schemaCreated = true;
      database = openPostgres(pgUrl, { options: `-c search_path=${schema}`, max: 2 });

      // The database as an operator left it: a PDU task over 8 offline miners, due now.
      const setup = await buildApp({
        database: { ...database, close: async () => {} },
        logger: false,
        seed: false,
        config: { demo: false, webDist: join(workDir, 'no-web'), dataDir: workDir },
      });
      const { fbox, minerIds } = await seedPduTask(setup, {
        name: 'Two processes',
        snPrefix: 'T',
        minerCount,
      });
      await setup.close();

      // Test-only instruments: every claim of a task, and which process held the task when each
      // item was inserted (an item is inserted only by the process holding the task's lease).
      await adminQuery(`
          create table ${schema}.test_claims (seq serial primary key, task_id int not null, owner text not null);
          create function ${schema}.test_record_claim() returns trigger language plpgsql as $fn$
          begin
            if new.claimed_by is not null and new.claimed_by is distinct from old.claimed_by then
              insert into ${schema}.test_claims (task_id, owner) values (new.id, new.claimed_by);
            end if;
            return new;
          end $fn$;
          create trigger test_claims after update on ${schema}.tasks
            for each row execute function ${schema}.test_record_claim();
          create table ${schema}.test_item_owners (item_id int primary key, owner text);
          create function ${schema}.test_record_item() returns trigger language plpgsql as $fn$
          begin
            insert into ${schema}.test_item_owners (item_id, owner)
              select new.id, claimed_by from ${schema}.tasks where id = new.task_id;
            return new;
          end $fn$;
          create trigger test_item_owners after insert on ${schema}.task_items
            for each row execute function ${schema}.test_record_item();
      `);

      // The gateway, on the external broker before any server starts: executes each command id
      // once, acknowledges every delivery.
      const received: Received[] = [];
      const executed = new Map<string, Received>();
      const gw = await connectAsync(mqttUrl!, {
        clientId: fbox.device_id,
        reconnectPeriod: 200,
        connectTimeout: 5000,
      });
      gateway = gw;
      gw.on('message', (_topic, payload) => {
        const command = JSON.parse(payload.toString()) as {
          id: string;
          target: { outlet: number };
          params: { status: string };
        };
        const record = { id: command.id, outlet: command.target.outlet, status: command.params.status };
        received.push(record);
        if (!executed.has(command.id)) executed.set(command.id, record);
        gw.publish(`fbox/${fbox.device_id}/cmd/ack`, JSON.stringify({ id: command.id, ok: true }), {
          qos: 1,
        });
      });
      gw.on('connect', () => gw.subscribe(`fbox/${fbox.device_id}/cmd`, { qos: 1 }));
      await gw.subscribeAsync(`fbox/${fbox.device_id}/cmd`, { qos: 1 });

      const databaseUrl = new URL(pgUrl);
      databaseUrl.searchParams.set('options', `-c search_path=${schema}`);
      const env: NodeJS.ProcessEnv = { ...process.env };
      for (const key of ['MQTT_URL', 'DATABASE_URL', 'TEST_DB', 'PORT', 'MQTT_PORT']) delete env[key];
      Object.assign(env, {
        DATA_DIR: workDir,
        DATABASE_URL: databaseUrl.href,
        MQTT_URL: mqttUrl,
        // Their own group: other tests on the same broker must not take this deployment's acks.
        MQTT_SHARE_GROUP: schema,
        // Sessions end with the processes: nothing stays queued at the broker for them.
        MQTT_SESSION_EXPIRY_SECONDS: '0',
        DEMO: '0',
        HOST: '127.0.0.1',
        PORT: '0',
        TASK_LEASE_SECONDS: '3',
        COMMAND_TIMEOUT_SECONDS: '120',
        LOG_LEVEL: 'info',
        WEB_DIST: join(workDir, 'no-web'),
      });
      const output: string[] = [];
      const listening = [false, false];
      for (let n = 0; n < 2; n++) {
        const child = spawn(process.execPath, ['--import', 'tsx', serverMain], {
          cwd: repoRoot,
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const onData = (d: Buffer) => {
          const text = d.toString();
          output.push(`[${n}] ${text}`);
          if (text.includes('http listening')) listening[n] = true;
        };
        child.stdout?.on('data', onData);
        child.stderr?.on('data', onData);
        servers.push(child);
      }
      const [a, b] = servers as [ChildProcess, ChildProcess];
      const serverOutput = () => output.join('').slice(-6000);
      await waitFor(() => {
        if (servers.some((s) => s.exitCode !== null)) throw new Error('a server exited');
        return listening[0] === true && listening[1] === true;
      }, 60_000).catch((error: unknown) => {
        throw new Error(`the servers did not start; output:\n${serverOutput()}`, { cause: error });
      });

      // Left alone, the process that claims the task first tends to keep it (its next due time
      // falls on its own tick). So once the first two batches are executed, the process that
      // inserted the latest item is paused (SIGSTOP) until the other one has inserted an item of its own,
      // then resumed: from there on both run the engine side by side to the end of the task.
      const pidOf = (owner: string) => Number(owner.split('-')[0]);
      const itemPidsOf = async () =>
        (
          await sql<{ owner: string | null }>`select owner from test_item_owners`.execute(database!.db)
        ).rows.map((r) => (r.owner === null ? null : pidOf(r.owner)));
      await waitFor(() => executed.size >= 4, 60_000).catch((error: unknown) => {
        throw new Error(`the first batches did not come; server output:\n${serverOutput()}`, {
          cause: error,
        });
      });
      const last = await sql<{ owner: string }>`
        select owner from test_item_owners order by item_id desc limit 1`.execute(database.db);
      const pausedPid = pidOf(last.rows[0]!.owner);
      const paused = servers.find((s) => s.pid === pausedPid)!;
      const other = servers.find((s) => s !== paused)!;
      expect(executed.size).toBeLessThan(2 * minerCount);
      paused.kill('SIGSTOP');
      try {
        await waitFor(async () => (await itemPidsOf()).includes(other.pid!), 60_000);
      } finally {
        paused.kill('SIGCONT');
      }

      await waitFor(async () => {
        const done = await database!.db
          .selectFrom('task_items')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', '=', 'acknowledged')
          .executeTakeFirstOrThrow();
        return Number(done.n) === 2 * minerCount && executed.size === 2 * minerCount;
      }, 120_000).catch((error: unknown) => {
        throw new Error(`the task did not finish; server output:\n${serverOutput()}`, { cause: error });
      });
      // Both still running: neither crashed along the way.
      expect(a.exitCode).toBeNull();
      expect(b.exitCode).toBeNull();
      for (const server of servers) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        server.kill('SIGTERM');
        await exited;
      }

      const db = database.db;
      const items = await db.selectFrom('task_items').selectAll().orderBy('id').execute();
      expect(items).toHaveLength(2 * minerCount);
      expect(items.every((i) => i.status === 'acknowledged')).toBe(true);
      for (const id of minerIds) {
        expect(items.filter((i) => i.miner_id === id).map((i) => i.action)).toEqual([
          'power_off',
          'power_on',
        ]);
      }
      const commands = await db.selectFrom('commands').select(['id', 'status']).execute();
      expect(commands).toHaveLength(2 * minerCount);
      expect(commands.every((c) => c.status === 'acknowledged')).toBe(true);
      expect(new Set(commands.map((c) => c.id))).toEqual(new Set(items.map((i) => i.command_id)));
      // The gateway executed exactly these commands: each outlet off once and on once.
      expect(received.length).toBeGreaterThanOrEqual(executed.size);
      expect(new Set(executed.keys())).toEqual(new Set(items.map((i) => i.command_id)));
      for (let outlet = 1; outlet <= minerCount; outlet++) {
        const switches = [...executed.values()].filter((r) => r.outlet === outlet).map((r) => r.status);
        expect(switches.sort()).toEqual(['off', 'on']);
      }
      for (const id of minerIds) {
        const [off, on] = items.filter((i) => i.miner_id === id);
        expect(on!.created_at - off!.created_at).toBeGreaterThanOrEqual(2000);
      }

      // Both processes took part: each claimed the task and each inserted items (the pause above
      // makes sure of it; engine owners are `<pid>-<random>`).
      const claims = await sql<{ owner: string }>`select owner from test_claims order by seq`.execute(db);
      const owners = await sql<{ item_id: number; owner: string | null }>`
        select item_id, owner from test_item_owners`.execute(db);
      const claimPids = claims.rows.map((r) => pidOf(r.owner));
      const itemPids = owners.rows.map((r) => (r.owner === null ? null : pidOf(r.owner)));
      expect(owners.rows).toHaveLength(2 * minerCount);
      expect(itemPids.every((pid) => pid === a.pid || pid === b.pid)).toBe(true);
      expect(claimPids.every((pid) => pid === a.pid || pid === b.pid)).toBe(true);
      expect(claimPids).toContain(a.pid);
      expect(claimPids).toContain(b.pid);
      expect(itemPids).toContain(a.pid);
      expect(itemPids).toContain(b.pid);
    }, 240_000);
  },
);
