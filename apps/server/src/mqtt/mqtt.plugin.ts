import fp from 'fastify-plugin';
import { type Broker, startBroker } from './broker.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The embedded broker, or null when an external MQTT_URL is used or MQTT is off. */
    mqttBroker: Broker | null;
  }
}

export interface MqttOptions {
  port: number;
  explicit: boolean;
  host: string;
  url: string | undefined;
}

/** Starts the embedded broker unless an external one is configured; stops it on close. */
export const mqttPlugin = fp<MqttOptions>(
  async (app, options) => {
    if (options.url) {
      app.log.info({ url: options.url.replace(/\/\/[^@]*@/, '//***@') }, 'using external MQTT broker');
      app.decorate('mqttBroker', null);
      return;
    }
    const broker = await startBroker(options, app.log);
    app.decorate('mqttBroker', broker);
    app.log.info({ port: broker.port }, `MQTT broker listening on port ${broker.port}`);
    app.addHook('onClose', async () => {
      await broker.close();
    });
  },
  { name: 'mqtt' },
);
