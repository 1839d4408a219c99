import fp from 'fastify-plugin';
import { ClientRecordRepository } from '../modules/mine/client-record.repository.js';
import { type Broker, startBroker } from './broker.js';
import { ClientTracker } from './client-tracker.js';
import { connectExternal } from './external.js';
import type { MqttTransport } from './transport.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The embedded broker, or null when an external MQTT_URL is used or MQTT is off. */
    mqttBroker: Broker | null;
    /** The server's MQTT connection (embedded or external), or null when MQTT is off. */
    mqtt: MqttTransport | null;
    /** Client key records of the clients this server's broker (or external broker) shows; null when MQTT is off. */
    mqttClients: ClientTracker | null;
  }
}

export interface MqttOptions {
  port: number;
  explicit: boolean;
  host: string;
  url: string | undefined;
  /** Shared-subscription group on an external broker; tests use their own so runs do not mix. */
  shareGroup?: string;
  /** Largest packet the embedded broker takes from a logged-in client. */
  maxPacketBytes: number;
  /** Client id on an external broker, stable across restarts. */
  clientId: string;
  /** How long the external broker keeps our session (and what arrives for it) while we are away. */
  sessionExpirySeconds: number;
}

/**
 * Starts the embedded broker (gateways authenticated with their FBOX accounts) unless an external
 * one is configured, then hands the connection to the command service. Closed on shutdown after
 * ingest has stopped taking messages (see ingest.plugin).
 */
export const mqttPlugin = fp<MqttOptions>(
  async (app, options) => {
    let transport: MqttTransport;
    const tracker = new ClientTracker(
      new ClientRecordRepository(app.db),
      app.clock,
      app.devices,
      app.log,
      app.secrets,
    );
    if (options.url) {
      app.log.info(
        { url: options.url.replace(/\/\/[^@]*@/, '//***@'), clientId: options.clientId },
        'using external MQTT broker',
      );
      transport = await connectExternal(
        {
          url: options.url,
          shareGroup: options.shareGroup ?? 'fbox-ingest',
          clientId: options.clientId,
          sessionExpirySeconds: options.sessionExpirySeconds,
          observe: (topic, payload) => tracker.observe(topic, payload),
        },
        app.log,
      );
      app.decorate('mqttBroker', null);
    } else {
      await tracker.reset();
      const broker = await startBroker(
        {
          ...options,
          clock: app.clock,
          authenticate: (username, password, clientId) => tracker.authenticate(username, password, clientId),
          observer: tracker,
        },
        app.log,
      );
      transport = broker;
      app.decorate('mqttBroker', broker);
      app.devices.setSessionCloser((deviceId) => broker.disconnect(deviceId));
      app.log.info({ port: broker.port }, `MQTT broker listening on port ${broker.port}`);
    }
    app.decorate('mqtt', transport);
    app.decorate('mqttClients', tracker);
    app.commands.setTransport(transport);
    // Once every plugin is in, so ingest's handler is there for what a resumed session delivers.
    app.addHook('onReady', () => transport.ready());
    app.addHook('onClose', async () => {
      app.commands.setTransport(null);
      app.devices.setSessionCloser(null);
      await transport.close();
      await tracker.drain();
    });
  },
  { name: 'mqtt', dependencies: ['devices'] },
);
