import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CommandMessage, type LiveMessage, topics } from '@fbox/contracts';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { Database } from '../db/database.js';
import { testDbKind } from '../test/build-test-app.js';
import { createArea, createFbox, createMaster, createMiner } from '../test/factories.js';
import { waitFor } from '../test/mqtt-client.js';
import {
  freePort,
  processDatabase,
  type ServerProcess,
  seedDatabase,
  startServerProcess,
} from '../test/server-process.js';

const mqttUrl = process.env.TEST_MQTT_URL;

/**
 * Live events across processes (DESIGN §8): two server processes on one PostgreSQL database, behind
 * which a browser may land on either. A browser's WebSocket on process B follows a miner restart
 * issued through process A: it hears "sent" and then the gateway's acknowledgement, which A handled
 * (only A is on the external broker the gateway uses), each exactly once.
 */
(testDbKind === 'postgres' && mqttUrl ? describe : describe.skip)(
  'live events in two server processes',
  () => {
    let dir: string | null = null;
    let drop: (() => Promise<void>) | undefined;
    let database: Database | undefined;
    const servers: ServerProcess[] = [];
    let gateway: MqttClient | undefined;
    let socket: WebSocket | undefined;
    afterAll(async () => {
      socket?.terminate();
      gateway?.end(true);
      await Promise.all(servers.map((server) => server.kill('SIGKILL')));
      await database?.close();
      await drop?.();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('a WebSocket on one process hears the command events of the other, once each', async () => {
      const workDir = mkdtempSync(join(tmpdir(), 'fbox-live2-'));
      dir = workDir;
      const target = await processDatabase(workDir);
      drop = target.drop;
      database = target.open();
      const master = { username: 'live2', password: 'live2-pass-1' };
      const seeded = await seedDatabase(database, workDir, async (app) => {
        const owner = await createMaster(app, master);
        const area = await createArea(app, owner.id);
        const fbox = await createFbox(app, area.id);
        const { id: minerId } = await createMiner(app, fbox, { online: true });
        return { areaId: area.id, fbox, minerId };
      });

      // The gateway: acknowledges every command a second after it got it (so "sent" comes first).
      const group = `live2-${randomBytes(4).toString('hex')}`;
      const gw = await connectAsync(mqttUrl!, { clientId: `gw-${group}`, reconnectPeriod: 0 });
      gateway = gw;
      gw.on('message', (_topic, payload) => {
        const command = JSON.parse(payload.toString()) as CommandMessage;
        const ack = JSON.stringify({ id: command.id, ok: true });
        setTimeout(() => gw.publish(topics.ack(seeded.fbox.device_id), ack, { qos: 1 }), 1000);
      });
      await gw.subscribeAsync(topics.command(seeded.fbox.device_id), { qos: 1 });

      // A talks to the gateways through the external broker; B only serves browsers (its embedded
      // broker has no gateway), so every command event B's browser hears was A's.
      const ports = [await freePort(), await freePort()] as const;
      const mqtt: Record<string, string>[] = [
        {
          MQTT_URL: mqttUrl!,
          // Its own group: other tests on the same broker must not take its acks.
          MQTT_SHARE_GROUP: group,
          MQTT_SESSION_EXPIRY_SECONDS: '0',
        },
        { MQTT_PORT: '0' },
      ];
      for (const [i, port] of ports.entries())
        servers.push(
          startServerProcess({ ...target.env, ...mqtt[i], PORT: String(port), LOG_LEVEL: 'info' }, workDir),
        );
      const output = () => servers.map((s, i) => `[${i}] ${s.output.join('').slice(-3000)}`).join('\n');
      await waitFor(
        () =>
          servers.every((s) => {
            const text = s.output.join('');
            return text.includes('http listening') && text.includes('relaying live events');
          }),
        60_000,
      ).catch((error: unknown) => {
        throw new Error(`the servers did not start:\n${output()}`, { cause: error });
      });
      const [a, b] = ports.map((port) => `127.0.0.1:${port}`) as [string, string];

      const login = await fetch(`http://${a}/index/index/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(master),
      });
      const token = ((await login.json()) as { data: { logintoken: string } }).data.logintoken;

      // The browser, on B.
      const heard: LiveMessage[] = [];
      const ws = new WebSocket(`ws://${b}/ws?area_id=${seeded.areaId}&logintoken=${token}`);
      socket = ws;
      ws.on('message', (data) => heard.push(JSON.parse(String(data)) as LiveMessage));
      await waitFor(() => heard.some((m) => m.type === 'hello'), 10_000);

      // The restart, through A.
      const restart = await fetch(`http://${a}/index/fbox.miner/restart`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', logintoken: token },
        body: JSON.stringify({ area_id: seeded.areaId, ids: String(seeded.minerId) }),
      });
      const answer = (await restart.json()) as {
        code: number;
        data: { commands: { command_id: string; status: string }[] };
      };
      expect(answer.code, JSON.stringify(answer)).toBe(1);
      const commandId = answer.data.commands[0]!.command_id;

      const statuses = () =>
        heard.flatMap((m) => (m.type === 'command' && m.commandId === commandId ? [m.status] : []));
      await waitFor(() => statuses().includes('acknowledged'), 20_000).catch((error: unknown) => {
        throw new Error(`B heard ${JSON.stringify(heard)}\n${output()}`, { cause: error });
      });
      // A moment for a duplicate to show if there were one.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(statuses()).toEqual(['sent', 'acknowledged']);
    }, 120_000);
  },
);
