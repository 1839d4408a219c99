import { connectAsync } from 'mqtt';
import pino from 'pino';
import { afterEach, expect, it } from 'vitest';
import { systemClock } from '../lib/clock.js';
import { waitFor } from '../test/mqtt-client.js';
import { startBroker } from './broker.js';

const deviceId = 'read-gate-box';
let stop: (() => Promise<void>) | undefined;
afterEach(() => stop?.());

/**
 * Backpressure at the embedded broker: while a gateway's message waits to be stored, nothing more
 * is read from its socket. Before, aedes read on and parsed every message the gateway sent, so a
 * database slower than the gateways filled memory with parsed messages (3.3 GB at 66,000 samples/s
 * offered on PostgreSQL).
 */
it('reads nothing more from a gateway while its message is being stored, then everything in order', async () => {
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
  const handled: number[] = [];
  let release!: () => void;
  const stalled = new Promise<void>((resolve) => {
    release = resolve;
  });
  broker.onMessage(async (_topic, payload) => {
    handled.push((JSON.parse(payload.toString()) as { seq: number }).seq);
    await stalled;
  });
  const gateway = await connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
    clientId: deviceId,
    username: 'gw',
    password: 'secret',
    reconnectPeriod: 0,
  });
  stop = async () => {
    release();
    await gateway.endAsync(true);
    await broker.close();
  };

  // Each message on the wire on its own (a socket read would otherwise bring several at once).
  const acks: Promise<unknown>[] = [];
  for (let seq = 1; seq <= 10; seq++) {
    acks.push(gateway.publishAsync(`fbox/${deviceId}/telemetry`, JSON.stringify({ seq }), { qos: 1 }));
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(handled).toEqual([1]);

  release();
  await Promise.all(acks);
  await waitFor(() => handled.length === 10);
  expect(handled).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
});
