import { EventEmitter } from 'node:events';
import { parseAgentRegisterTopic } from '@fbox/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { connect, type IPublishPacket } from 'mqtt';
import { type AgentRegisterHandler, HandlerSlot, type MqttRefusal, type MqttTransport } from './transport.js';

/** Messages the broker may have in flight to us at once (MQTT 5 Receive Maximum). */
const receiveMaximum = 100;

/**
 * The server as a client of an external broker (Mosquitto, EMQX) at MQTT_URL. Telemetry and acks
 * come through a shared subscription, so with N server processes each message reaches one of them.
 * Status is subscribed plainly by every process: brokers do not send retained messages to shared
 * subscriptions, and applying a status twice is harmless.
 *
 * The session is persistent under a client id stable across restarts (`MQTT_CLIENT_ID`), so what
 * gateways publish while this process is down or restarting waits at the broker and is delivered
 * when it is back. A message is acknowledged only once ingest has stored it (mqtt.js sends the
 * PUBACK when `handleMessage` calls back); one that could not be stored is not acknowledged, and
 * the connection is dropped so the broker delivers it again on reconnect.
 */
export const connectExternal = async (
  options: {
    url: string;
    shareGroup: string;
    clientId: string;
    /** How long the broker keeps our session (subscriptions, unacknowledged and queued messages). */
    sessionExpirySeconds: number;
    /** Sees hello and status messages of gateways and agents (client key records). */
    observe?: (topic: string, payload: Buffer) => void;
    /**
     * How long start-up waits for the broker to confirm the subscriptions (default 5 s). A resumed
     * session's backlog is stored before the confirmation is read, so after a long absence it may
     * come late; start-up then goes on, and a refusal arriving later is logged as an error.
     */
    subscribeWaitMs?: number;
  },
  log: FastifyBaseLogger,
): Promise<MqttTransport> => {
  const handler = new HandlerSlot();
  const agentRegister = new HandlerSlot<Parameters<AgentRegisterHandler>>();
  // Not connectAsync: the handler must be in place before the CONNACK, since a resumed session
  // delivers its backlog right behind it, and mqtt.js's default handler would acknowledge it unstored.
  const client = connect(options.url, {
    clientId: options.clientId,
    clean: false,
    protocolVersion: 5,
    properties: { sessionExpiryInterval: options.sessionExpirySeconds, receiveMaximum },
    reconnectPeriod: 2000,
    connectTimeout: 10_000,
    // Nothing of ours is queued while offline: commands have their own timeouts and retries.
    queueQoSZero: false,
  });
  client.handleMessage = (packet: IPublishPacket, done) => {
    const topic = packet.topic;
    const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
    const register = parseAgentRegisterTopic(topic);
    if (register?.what === 'register') {
      // The broker's ACL lets only the mine's agents write under `agent/<areaId>/`. Acknowledged at
      // once: mqtt.js reads nothing more until `done`, and the answer's own PUBACK must get through.
      // The answer on the agent's `registered` topic is what the agent waits for (and retries without).
      done();
      agentRegister
        .handle(register.areaId, register.clientId, payload, null)
        .catch((error: unknown) => log.warn({ err: error, topic }, 'agent registration not handled'));
      return;
    }
    if (topic.startsWith('agent/') || topic.endsWith('/hello')) {
      options.observe?.(topic, payload);
      return done();
    }
    if (topic.endsWith('/status')) options.observe?.(topic, payload);
    handler.handle(topic, payload).then(
      () => done(),
      (error: unknown) => {
        // No PUBACK. The broker resends an unacknowledged message only on a new connection.
        log.warn({ err: error, topic }, 'MQTT message not stored; reconnecting so the broker resends it');
        done(error instanceof Error ? error : new Error(String(error)));
        client.stream.destroy();
      },
    );
  };
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => {
      client.off('error', reject);
      resolve();
    });
    client.once('error', reject);
  }).catch((error: unknown) => {
    client.end(true);
    throw error;
  });
  client.on('error', (error) => log.warn({ err: error }, 'MQTT client error'));
  client.on('reconnect', () => log.info('MQTT client reconnecting'));
  const share = `$share/${options.shareGroup}`;
  // Not awaited here: a resumed session delivers its backlog at once, and mqtt.js handles packets in
  // order, so the SUBACK waits behind messages that wait for ingest's handler (installed after this
  // plugin) and their commits. `ready` is awaited once every plugin is in (onReady), for a while
  // only: a server restarted behind a large backlog on a busy machine failed to start (the onReady
  // hook's 10 s ran out) and so stored nothing.
  const subscribed = client.subscribeAsync({
    [`${share}/fbox/+/telemetry`]: { qos: 1 },
    [`${share}/fbox/+/cmd/ack`]: { qos: 1 },
    [`${share}/fbox/+/logs`]: { qos: 1 },
    // Agent registrations: one process creates the box and answers.
    [`${share}/agent/+/+/register`]: { qos: 1 },
    'fbox/+/status': { qos: 1 },
    // Client key records: every process keeps them (writes are idempotent), like status.
    'fbox/+/hello': { qos: 1 },
    'agent/+/+/hello': { qos: 1 },
    'agent/+/+/status': { qos: 1 },
  });
  const confirmed = subscribed.then((granted) => {
    const refused = granted.filter((g) => g.qos > 2);
    if (refused.length > 0)
      throw new Error(`MQTT subscriptions refused: ${refused.map((g) => g.topic).join(', ')}`);
  });
  void confirmed.catch(() => {});
  let closing: Promise<void> | undefined;
  return {
    kind: 'external',
    ready: async () => {
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), options.subscribeWaitMs ?? 5000);
      });
      const first = await Promise.race([confirmed, waited]).finally(() => clearTimeout(timer));
      if (first !== 'late') return;
      log.warn(
        'MQTT subscriptions not confirmed yet (the backlog of the resumed session comes first): starting',
      );
      confirmed.catch((error: unknown) => log.error({ err: error }, 'MQTT subscriptions refused'));
    },
    events: new EventEmitter<{ refused: [MqttRefusal] }>(),
    onMessage: (h) => handler.set(h),
    onAgentRegister: (h) => agentRegister.set(h),
    publish: async (topic, payload, { qos, retain = false }) => {
      await client.publishAsync(topic, payload, { qos, retain });
    },
    close: () => {
      closing ??= client.endAsync().then(() => {
        handler.close();
        agentRegister.close();
      });
      return closing;
    },
  };
};
