import { mkdtempSync } from 'node:fs';
import { type AddressInfo, createServer, connect as netConnect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MinerTelemetry, TelemetryMessageSchema } from '@fbox/contracts';
import { connectAsync } from 'mqtt';
import { describe, expect, it } from 'vitest';
import { Gateway, telemetryMessages } from './gateway.js';
import { silentLogger } from './logger.js';
import { fitText } from './telemetry.js';

const miner = (i: number): MinerTelemetry => ({
  sn: `SN${i}`,
  ip: '10.0.0.1',
  worker: 'acct.1',
  model: 'S19j Pro',
  brand: 'Antminer',
  pool: 'btc.viabtc.io',
  pool_address: 'stratum+tcp://btc.viabtc.io:3333',
  firmware: '2021',
  tank_no: null,
  outlet: null,
  online: true,
  mode: 'high',
  chip_avg_temp: 60,
  chip_max_temp: 70,
  hashrate_theoretical: 104,
  hashrate_realtime: 104.5,
  hashrate_avg: 104.2,
  power_w: -999,
  fault: '',
  uptime_s: 3600,
});

describe('telemetry messages', () => {
  it('split a report over messages of at most 5,000 miners, each valid, seq consecutive, one ts', () => {
    const messages = telemetryMessages(
      Array.from({ length: 12_001 }, (_, i) => miner(i)),
      1000,
      1735689600000,
    );
    expect(messages.map((m) => [m.seq, m.ts, m.miners.length])).toEqual([
      [1000, 1735689600000, 5000],
      [1001, 1735689600000, 5000],
      [1002, 1735689600000, 2001],
    ]);
    for (const message of messages) expect(TelemetryMessageSchema.safeParse(message).success).toBe(true);
    expect(messages[0]!.box).toEqual({
      temperature: -999,
      humidity: -999,
      voltage: [-999, -999, -999],
      power_kw: -999,
      meters: [],
    });
  });

  it('send one message with no miners, so the box stays online', () => {
    expect(telemetryMessages([], 5, 6)).toEqual([expect.objectContaining({ seq: 5, ts: 6, miners: [] })]);
  });
});

describe('gateway connection', () => {
  it('backs off between reconnection attempts, doubling the pause', async () => {
    const gateway = new Gateway({
      brokerUrl: 'mqtt://127.0.0.1:1',
      deviceId: 'FBTEST',
      now: Date.now,
      logger: silentLogger,
      execute: async (command) => ({ id: command.id, ok: true }),
      reconnectPeriodMs: 50,
      maxReconnectPeriodMs: 400,
    });
    await expect(gateway.start(1600)).rejects.toThrow(
      /no connection to mqtt:\/\/127\.0\.0\.1:1 within 1600 ms/,
    );
    // Pauses 50, 100, 200, 400, 400 … ms: about 5 attempts in 1.6 s (a fixed 50 ms pause makes ~30).
    expect(gateway.stats.reconnects).toBeGreaterThanOrEqual(3);
    expect(gateway.stats.reconnects).toBeLessThanOrEqual(8);
    await gateway.stop();
  });
});

describe('gateway buffer', () => {
  it('keeps reports made while the cloud is unreachable on disk, for this run and the next', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateway-outbox-'));
    const options = {
      brokerUrl: 'mqtt://127.0.0.1:1',
      deviceId: 'FBTEST',
      now: () => 1735689600000,
      logger: silentLogger,
      execute: async (command: { id: string }) => ({ id: command.id, ok: true }),
      buffer: { dir, maxBytes: 1024 ** 2 },
    };
    const gateway = new Gateway(options);
    expect(await gateway.report([miner(1), miner(2)])).toBe(0);
    expect(await gateway.report([miner(3)])).toBe(0);
    expect(gateway.stats).toMatchObject({ buffered: 2, reportsSkipped: 0, messagesSent: 0 });
    expect(gateway.stats.bufferedBytes).toBeGreaterThan(1000);
    await gateway.stop();
    // A restarted collector finds them waiting.
    expect(new Gateway(options).stats).toMatchObject({ buffered: 2 });
  });

  it('skips reports made while the cloud is unreachable when it has no buffer', async () => {
    const gateway = new Gateway({
      brokerUrl: 'mqtt://127.0.0.1:1',
      deviceId: 'FBTEST',
      now: Date.now,
      logger: silentLogger,
      execute: async (command) => ({ id: command.id, ok: true }),
    });
    expect(await gateway.report([miner(1)])).toBe(0);
    expect(gateway.stats).toMatchObject({ buffered: 0, reportsSkipped: 1 });
  });
});

/**
 * A TCP proxy that can hold what the gateway sends (the connection stays open, nothing reaches the
 * broker and no PUBACK comes back: a cloud that stopped answering), then let it through.
 */
const holdingProxy = async (target: URL) => {
  let holding = false;
  const held: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = netConnect(Number(target.port || 1883), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {}).on('close', () => sockets.delete(socket));
    }
    client.on('data', (chunk) => (holding ? held.push(() => upstream.write(chunk)) : upstream.write(chunk)));
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      for (const send of held.splice(0)) send();
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
};

describe.skipIf(!process.env.TEST_MQTT_URL)('gateway against a broker that stops answering', () => {
  it('buffers a report the cloud does not acknowledge in time, and keeps the order when it answers again', async () => {
    const broker = new URL(process.env.TEST_MQTT_URL!);
    const proxy = await holdingProxy(broker);
    const deviceId = `FBBUF${Date.now()}`;
    const cloud = await connectAsync(broker.href, { clientId: `${deviceId}-cloud` });
    const seen: number[] = [];
    cloud.on('message', (_topic, payload) => seen.push(JSON.parse(payload.toString()).seq));
    await cloud.subscribeAsync(`fbox/${deviceId}/telemetry`, { qos: 1 });
    const gateway = new Gateway({
      brokerUrl: proxy.url,
      deviceId,
      now: Date.now,
      logger: silentLogger,
      execute: async (command) => ({ id: command.id, ok: true }),
      buffer: { dir: mkdtempSync(join(tmpdir(), 'gateway-outbox-')) },
      publishTimeoutMs: 300,
    });
    try {
      await gateway.start(5000);
      expect(await gateway.report([miner(1)])).toBe(1);
      await waitFor(() => seen.length === 1);
      const first = seen[0]!;

      proxy.hold();
      const began = Date.now();
      expect(await gateway.report([miner(2)])).toBe(0);
      expect(Date.now() - began).toBeLessThan(2000);
      // Older messages wait: the next report queues behind them instead of overtaking.
      expect(await gateway.report([miner(3)])).toBe(0);
      expect(gateway.stats.buffered).toBe(2);

      proxy.release();
      await waitFor(() => gateway.stats.buffered === 0 && new Set(seen).size === 3);
      // At least once (the unacknowledged copy may come twice), in the order the reports were made.
      expect([...new Set(seen)]).toEqual([first, first + 1, first + 2]);
      expect(await gateway.report([miner(4)])).toBe(1);
    } finally {
      await gateway.stop();
      // Retained messages outlive the test on a shared broker: clear what the gateway set.
      for (const topic of [`fbox/${deviceId}/status`, `fbox/${deviceId}/hello`])
        await cloud.publishAsync(topic, '', { retain: true, qos: 1 });
      await cloud.endAsync();
      await proxy.close();
    }
  });
});

/** Polls `check` until it holds, failing after `timeoutMs`. */
const waitFor = async (check: () => boolean, timeoutMs = 5000): Promise<void> => {
  for (const until = Date.now() + timeoutMs; !check(); await new Promise((r) => setTimeout(r, 20)))
    if (Date.now() > until) throw new Error('condition not met in time');
};

describe('text limits', () => {
  it('cut over-long firmware strings so the message is not refused whole', () => {
    const long = { ...miner(1), firmware: 'x'.repeat(300), pool_address: `stratum+tcp://${'p'.repeat(300)}` };
    const message = telemetryMessages([fitText(long)], 1, 2)[0]!;
    expect(TelemetryMessageSchema.safeParse(message).success).toBe(true);
    expect(message.miners[0]!.firmware).toHaveLength(64);
  });
});
