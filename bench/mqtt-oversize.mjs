// Oversized MQTT packets (issue 10 item 4): peak RSS of the server while six unauthenticated
// connections each announce a 200 MB CONNECT and one authenticated gateway a 200 MB PUBLISH, and
// each then streams that much data. The attackers run in a forked child process, so the figure is
// the server's alone. Prints one JSON object. Run after `npm run build` (or `npx tsc -b`).
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKET = 200 * 1024 * 1024;
const CONNECTIONS = 6;

/** MQTT "remaining length" bytes. */
const remainingLength = (n) => {
  const bytes = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    bytes.push(byte);
  } while (n > 0);
  return bytes;
};

/** Writes a fixed header announcing PACKET bytes, then streams them; resolves when the socket closes. */
const flood = (socket, typeByte) =>
  new Promise((resolve) => {
    const chunk = Buffer.alloc(1024 * 1024);
    let sent = 0;
    socket.on('error', () => {});
    socket.once('close', () => resolve(sent));
    socket.write(Buffer.from([typeByte, ...remainingLength(PACKET)]));
    const pump = () => {
      while (sent < PACKET && !socket.destroyed) {
        sent += chunk.length;
        if (!socket.write(chunk)) return socket.once('drain', pump);
      }
      // All sent: give the server a moment to buffer it, then leave.
      setTimeout(() => socket.destroy(), 2000);
    };
    pump();
  });

if (process.argv[2] === 'attacker') {
  process.once('message', async ({ port, gateway }) => {
    const open = () =>
      new Promise((resolve) => {
        const s = connect(port, '127.0.0.1', () => resolve(s));
      });
    const attacks = [];
    for (let i = 0; i < CONNECTIONS; i++) attacks.push(open().then((s) => flood(s, 0x10)));
    // The gateway logs in with its own mqtt client, then writes a raw PUBLISH header on its socket.
    const { connectAsync } = await import('mqtt');
    const client = await connectAsync(`mqtt://127.0.0.1:${port}`, { ...gateway, reconnectPeriod: 0 });
    attacks.push(flood(client.stream, 0x30));
    const sent = await Promise.all(attacks);
    process.send({ sentMb: Math.round(sent.reduce((a, b) => a + b, 0) / 1048576) }, () => process.exit(0));
  });
} else {
  const { buildBenchApp } = await import('./lib/bench-app.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'fbox-bench-'));
  const app = await buildBenchApp({ dir, mqtt: true });

  const owner = await app.users.create({ username: 'bench', password: 'bench-password', is_master: true });
  const area = await app.areas.create(owner, { area_name: 'Bench' });
  const fbox = await app.devices.createFbox(area.id, { name: 'Box', kind: 'immersion', tanks: 1 });
  const { device_id } = await app.db.selectFrom('fboxes').select('device_id').executeTakeFirstOrThrow();
  globalThis.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
  const started = Date.now();
  const attacker = fork(fileURLToPath(import.meta.url), ['attacker'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const result = await new Promise((resolve) => {
    attacker.once('message', resolve);
    attacker.send({
      port: app.mqttBroker.port,
      gateway: { clientId: device_id, username: fbox.mqtt_username, password: fbox.mqtt_password },
    });
  });
  clearInterval(sampler);
  console.log(
    JSON.stringify({
      bench: 'mqtt-oversize',
      connections: CONNECTIONS + 1,
      announcedMb: PACKET / 1048576,
      attackerSentMb: result.sentMb,
      baselineRssMb: Math.round(baseline / 1048576),
      peakRssMb: Math.round(peak / 1048576),
      seconds: (Date.now() - started) / 1000,
    }),
  );
  await app.close();
  rmSync(dir, { recursive: true, force: true });
}
