import { connectAsync } from 'mqtt';
import pino from 'pino';
import { afterEach, expect, it } from 'vitest';
import { systemClock } from '../lib/clock.js';
import { waitFor } from '../test/mqtt-client.js';
import { startBroker } from './broker.js';

const deviceId = 'read-gate-box';
let stop: (() => Promise<void>) | undefined;
afterEach(() => stop?.());

/** A promise the test resolves when it chooses. */
const stall = () => {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
};

/** The broker with one gateway connected; its messages go to `handle`. Stopping releases `held`. */
const startGatedBroker = async (
  held: ReturnType<typeof stall>,
  handle: (topic: string, payload: Buffer) => Promise<void>,
) => {
  const broker = await startBroker(
    {
      port: 0,
      explicit: false,
      host: '127.0.0.1',
      maxPacketBytes: 1 << 20,
      clock: systemClock,
      authenticate: async (username) =>
        username === 'gw' ? { kind: 'gateway', clientKey: 'gw', areaId: 1, deviceId, fboxId: 1 } : null,
    },
    pino({ level: 'silent' }),
  );
  broker.onMessage(handle);
  const gateway = await connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
    clientId: deviceId,
    username: 'gw',
    password: 'secret',
    reconnectPeriod: 0,
  });
  stop = async () => {
    held.release();
    await gateway.endAsync(true);
    await broker.close();
  };
  return gateway;
};

const seqOf = (payload: Buffer) => (JSON.parse(payload.toString()) as { seq: number }).seq;

/**
 * Backpressure at the embedded broker: while a gateway's message waits to be stored, nothing more
 * is read from its socket. Before, aedes read on and parsed every message the gateway sent, so a
 * database slower than the gateways filled memory with parsed messages (3.3 GB at 66,000 samples/s
 * offered on PostgreSQL).
 */
it('reads nothing more from a gateway while its message is being stored, then everything in order', async () => {
  const handled: number[] = [];
  const held = stall();
  const gateway = await startGatedBroker(held, async (_topic, payload) => {
    handled.push(seqOf(payload));
    await held.promise;
  });

  // Each message on the wire on its own (a socket read would otherwise bring several at once).
  const acks: Promise<unknown>[] = [];
  for (let seq = 1; seq <= 10; seq++) {
    acks.push(gateway.publishAsync(`fbox/${deviceId}/telemetry`, JSON.stringify({ seq }), { qos: 1 }));
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(handled).toEqual([1]);

  held.release();
  await Promise.all(acks);
  await waitFor(() => handled.length === 10);
  expect(handled).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
});

/**
 * Packets read together are handled together: quick ones (log parts) finish while a slow one
 * (telemetry waiting for its batch) holds the gate. aedes' own pause lost those completions and never
 * read the socket again, which stalled the miner log export.
 */
it('keeps reading after quick messages finish while a slow one of the same read holds the gate', async () => {
  const handled: string[] = [];
  const held = stall();
  const gateway = await startGatedBroker(held, async (topic, payload) => {
    handled.push(`${topic.split('/')[2]}:${seqOf(payload)}`);
    if (topic.endsWith('/telemetry')) await held.promise;
  });

  // Sent without waiting, so they share socket reads.
  const first = [
    gateway.publishAsync(`fbox/${deviceId}/telemetry`, JSON.stringify({ seq: 1 }), { qos: 1 }),
    ...[1, 2, 3, 4].map((seq) =>
      gateway.publishAsync(`fbox/${deviceId}/logs`, JSON.stringify({ seq }), { qos: 1 }),
    ),
  ];
  await new Promise((resolve) => setTimeout(resolve, 200));
  held.release();
  await Promise.all(first);
  for (let seq = 5; seq <= 8; seq++)
    await gateway.publishAsync(`fbox/${deviceId}/logs`, JSON.stringify({ seq }), { qos: 1 });
  expect(handled.filter((h) => h.startsWith('logs'))).toEqual(
    [1, 2, 3, 4, 5, 6, 7, 8].map((seq) => `logs:${seq}`),
  );
  expect(handled).toContain('telemetry:1');
});
