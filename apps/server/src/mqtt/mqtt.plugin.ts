import fp from 'fastify-plugin';
import { type Broker, startBroker } from './broker.js';
import { connectExternal } from './external.js';
import type { MqttTransport } from './transport.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The embedded broker, or null when an external MQTT_URL is used or MQTT is off. */
    mqttBroker: Broker | null;
    /** The server's MQTT connection (embedded or external), or null when MQTT is off. */
    mqtt: MqttTransport | null;
  }
}

export interface MqttOptions {
  port: number;
  explicit: boolean;
  host: string;
  url: string | undefined;
  /** Shared-subscription group on an external broker; tests use their own so runs do not mix. */
  shareGroup?: string;
}

/**
 * Starts the embedded broker (gateways authenticated with their FBOX accounts) unless an external
 * one is configured, then hands the connection to the command service. Closed on shutdown after
 * ingest has stopped taking messages (see ingest.plugin).
 */
export const mqttPlugin = fp<MqttOptions>(
  async (app, options) => {
    let transport: MqttTransport;
    if (options.url) {
      app.log.info({ url: options.url.replace(/\/\/[^@]*@/, '//***@') }, 'using external MQTT broker');
      transport = await connectExternal(
        { url: options.url, shareGroup: options.shareGroup ?? 'fbox-ingest' },
        app.log,
      );
      app.decorate('mqttBroker', null);
    } else {
      const broker = await startBroker(
        { ...options, authenticate: (username, password) => app.devices.authenticate(username, password) },
        app.log,
      );
      transport = broker;
      app.decorate('mqttBroker', broker);
      app.devices.setSessionCloser((deviceId) => broker.disconnect(deviceId));
      app.log.info({ port: broker.port }, `MQTT broker listening on port ${broker.port}`);
    }
    app.decorate('mqtt', transport);
    app.commands.setTransport(transport);
    app.addHook('onClose', async () => {
      app.commands.setTransport(null);
      app.devices.setSessionCloser(null);
      await transport.close();
    });
  },
  { name: 'mqtt', dependencies: ['devices'] },
);
