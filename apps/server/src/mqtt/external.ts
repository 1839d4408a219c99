import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import { connectAsync } from 'mqtt';
import type { MqttMessageHandler, MqttRefusal, MqttTransport } from './transport.js';

/**
 * The server as a client of an external broker (Mosquitto, EMQX) at MQTT_URL. Telemetry and acks
 * come through a shared subscription, so with N server processes each message reaches one of them.
 * Status is subscribed plainly by every process: brokers do not send retained messages to shared
 * subscriptions, and applying a status twice is harmless.
 */
export const connectExternal = async (
  options: {
    url: string;
    shareGroup: string;
    /** Sees hello and status messages of gateways and agents (client key records). */
    observe?: (topic: string, payload: Buffer) => void;
  },
  log: FastifyBaseLogger,
): Promise<MqttTransport> => {
  let handler: MqttMessageHandler = () => {};
  const client = await connectAsync(options.url, {
    clientId: `fbox-server-${randomBytes(6).toString('hex')}`,
    clean: true,
    protocolVersion: 5,
    reconnectPeriod: 2000,
    connectTimeout: 10_000,
  });
  client.on('message', (topic, payload) => {
    if (topic.startsWith('agent/') || topic.endsWith('/hello')) options.observe?.(topic, payload);
    else {
      if (topic.endsWith('/status')) options.observe?.(topic, payload);
      handler(topic, payload);
    }
  });
  client.on('error', (error) => log.warn({ err: error }, 'MQTT client error'));
  client.on('reconnect', () => log.info('MQTT client reconnecting'));
  const share = `$share/${options.shareGroup}`;
  await client.subscribeAsync({
    [`${share}/fbox/+/telemetry`]: { qos: 1 },
    [`${share}/fbox/+/cmd/ack`]: { qos: 1 },
    'fbox/+/status': { qos: 1 },
    // Client key records: every process keeps them (writes are idempotent), like status.
    'fbox/+/hello': { qos: 1 },
    'agent/+/+/hello': { qos: 1 },
    'agent/+/+/status': { qos: 1 },
  });
  let closing: Promise<void> | undefined;
  return {
    kind: 'external',
    events: new EventEmitter<{ refused: [MqttRefusal] }>(),
    onMessage: (h) => {
      handler = h;
    },
    publish: async (topic, payload, { qos, retain = false }) => {
      await client.publishAsync(topic, payload, { qos, retain });
    },
    close: () => {
      closing ??= client.endAsync().then(() => {
        handler = () => {};
      });
      return closing;
    },
  };
};
