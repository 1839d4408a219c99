import { randomBytes } from 'node:crypto';
import { connectAsync } from 'mqtt';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { takeExternalBroker, waitFor } from '../test/mqtt-client.js';
import { connectExternal } from './external.js';
import type { MqttTransport } from './transport.js';

const mqttUrl = process.env.TEST_MQTT_URL;

/**
 * A server resuming its session at an external broker is handed the backlog before the broker's
 * answer to its subscriptions, and each message waits for its commit. Start-up waits for that answer
 * only so long: a restart behind a large backlog on a busy machine must not fail (and store nothing).
 */
(mqttUrl ? describe : describe.skip)('external broker: start-up behind a backlog', () => {
  const clientId = `fbox-test-ready-${randomBytes(6).toString('hex')}`;
  const shareGroup = `ready-${randomBytes(4).toString('hex')}`;
  const log = pino({ level: 'silent' });
  const open: MqttTransport[] = [];
  const connect = async () => {
    const transport = await connectExternal(
      { url: mqttUrl!, shareGroup, clientId, sessionExpirySeconds: 120, subscribeWaitMs: 300 },
      log,
    );
    open.push(transport);
    return transport;
  };
  takeExternalBroker(mqttUrl!, clientId, () => Promise.all(open.map((t) => t.close())));

  it('is ready while the backlog is still being stored, and stores all of it', async () => {
    // The session exists, with its subscriptions; then the server is away.
    const first = await connect();
    first.onMessage(async () => {});
    await first.ready();
    await first.close();

    const device = `ready-${randomBytes(4).toString('hex')}`;
    const gateway = await connectAsync(mqttUrl!, { protocolVersion: 5, reconnectPeriod: 0 });
    for (let seq = 1; seq <= 5; seq++)
      await gateway.publishAsync(`fbox/${device}/telemetry`, JSON.stringify({ seq }), { qos: 1 });
    await gateway.endAsync();

    // Back again, with storage stalled: the first queued message waits, and the rest behind it.
    const second = await connect();
    const stored: number[] = [];
    let release!: () => void;
    const stalled = new Promise<void>((resolve) => {
      release = resolve;
    });
    second.onMessage(async (topic, payload) => {
      // Other tests' gateways publish on the same broker.
      if (topic !== `fbox/${device}/telemetry`) return;
      await stalled;
      stored.push((JSON.parse(payload.toString()) as { seq: number }).seq);
    });
    await second.ready();
    expect(stored).toEqual([]);

    release();
    await waitFor(() => stored.length === 5, 10_000);
    expect(stored).toEqual([1, 2, 3, 4, 5]);
  });
});
