import { EventEmitter } from 'node:events';
import { createServer, type Server } from 'node:net';
import { parseTopic } from '@fbox/contracts';
import { Aedes, type Client } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import { listenOnFreeFallback } from '../lib/ports.js';
import type { MqttMessageHandler, MqttRefusal, MqttTransport } from './transport.js';

export interface Broker {
  port: number;
  /** Closes every session of a device (its credentials changed or its box is gone); returns how many. */
  disconnect(deviceId: string): number;
  close(): Promise<void>;
}

/** Checks a gateway's MQTT account; resolves to the device id it may use, or null. */
export type Authenticator = (username: string, password: string) => Promise<string | null>;

/** The device id an authenticated client was admitted for (kept on the aedes client object). */
const deviceIdOf = (client: Client | null): string | undefined =>
  (client as (Client & { fboxDeviceId?: string }) | null)?.fboxDeviceId;

const notAuthorized = (code: 4 | 5) =>
  Object.assign(new Error('Not authorized'), { returnCode: code as 4 | 5 });

/**
 * The embedded MQTT broker (aedes). Each gateway logs in with its FBOX's account and is confined to
 * `fbox/<its deviceId>/`: it may publish telemetry, status and cmd/ack there and subscribe to its cmd
 * only. The server itself does not connect as a client: it reads publishes off the broker and
 * publishes commands straight into it.
 */
export const startBroker = async (
  options: { port: number; explicit: boolean; host: string; authenticate: Authenticator },
  log: FastifyBaseLogger,
): Promise<Broker & MqttTransport> => {
  const events = new EventEmitter<{ refused: [MqttRefusal] }>();
  let handler: MqttMessageHandler = () => {};
  const refuse = (refusal: MqttRefusal) => {
    // Ingest counts and logs refusals; log here only when nobody listens.
    if (!events.emit('refused', refusal)) log.warn(refusal, 'MQTT client refused');
  };

  const aedes = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      options.authenticate(username ?? '', password?.toString('utf8') ?? '').then(
        (deviceId) => {
          if (!deviceId) {
            refuse({ reason: 'bad_credentials', clientId: client.id, username });
            return done(notAuthorized(4), false);
          }
          (client as Client & { fboxDeviceId?: string }).fboxDeviceId = deviceId;
          done(null, true);
        },
        (error: unknown) => {
          log.error({ err: error }, 'MQTT authentication failed');
          done(notAuthorized(5), false);
        },
      );
    },
    authorizePublish: (client, packet, callback) => {
      // client is null for the server's own publishes (commands).
      if (!client) return callback(null);
      const parsed = parseTopic(packet.topic);
      if (parsed && parsed.kind !== 'cmd' && parsed.deviceId === deviceIdOf(client)) return callback(null);
      refuse({ reason: 'foreign_topic', clientId: client.id, topic: packet.topic });
      callback(new Error('Topic not allowed'));
    },
    authorizeSubscribe: (client, subscription, callback) => {
      const deviceId = deviceIdOf(client);
      if (deviceId && subscription.topic === `fbox/${deviceId}/cmd`) return callback(null, subscription);
      log.warn({ clientId: client.id, topic: subscription.topic }, 'MQTT subscription refused');
      // A null subscription is a SUBACK failure (0x80) without dropping the connection.
      callback(null, null);
    },
  });
  // Sessions by device id, so a changed password or a deleted box can cut its gateway off at once.
  const sessions = new Map<string, Set<Client>>();
  aedes.on('client', (client) => {
    const deviceId = deviceIdOf(client);
    if (!deviceId) return;
    const set = sessions.get(deviceId) ?? new Set<Client>();
    set.add(client);
    sessions.set(deviceId, set);
  });
  aedes.on('clientDisconnect', (client) => {
    const deviceId = deviceIdOf(client);
    const set = deviceId ? sessions.get(deviceId) : undefined;
    if (!set) return;
    set.delete(client);
    if (set.size === 0) sessions.delete(deviceId!);
  });
  aedes.on('publish', (packet, client) => {
    if (client && !packet.topic.startsWith('$SYS')) handler(packet.topic, packet.payload as Buffer);
  });

  const server: Server = createServer(aedes.handle);
  const port = await listenOnFreeFallback(server, { ...options, name: 'MQTT' }, log);
  let closing: Promise<void> | undefined;
  return {
    kind: 'embedded',
    port,
    events,
    onMessage: (h) => {
      handler = h;
    },
    publish: (topic, payload, { qos, retain = false }) =>
      new Promise<void>((resolve, reject) =>
        aedes.publish(
          { cmd: 'publish', topic, payload: Buffer.from(payload), qos, retain, dup: false },
          (error) => (error ? reject(error) : resolve()),
        ),
      ),
    disconnect: (deviceId) => {
      const set = sessions.get(deviceId);
      if (!set) return 0;
      sessions.delete(deviceId);
      for (const client of set) client.close();
      log.info({ deviceId, sessions: set.size }, 'MQTT sessions of a device closed');
      return set.size;
    },
    close: () => {
      closing ??= (async () => {
        // aedes first: it disconnects the clients, so the server's close does not wait on them.
        await new Promise<void>((resolve) => aedes.close(() => resolve()));
        await new Promise<void>((resolve) => server.close(() => resolve()));
        handler = () => {};
      })();
      return closing;
    },
  };
};
