import fp from 'fastify-plugin';
import { StatusRepository } from '../devices/status.repository.js';
import { TelemetryWriter } from '../devices/telemetry-writer.js';
import { IngestService } from './ingest.service.js';
import { StatusService } from './status.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    ingest: IngestService;
    /** Online/offline of gateways (status topic, last will, silence). */
    deviceStatus: StatusService;
  }
}

/**
 * MQTT ingest. Registered after the mqtt plugin so that on close it runs first: it closes the MQTT
 * connection (no new messages), then writes what is queued, before the database closes.
 */
export const ingestPlugin = fp(
  async (app) => {
    const status = new StatusService(new StatusRepository(app.db), app.clock, app.live, app.log);
    const ingest = new IngestService({
      writer: new TelemetryWriter(app.db, app.dbDialect),
      devices: app.devices,
      commands: app.commands,
      status,
      live: app.live,
      clock: app.clock,
      log: app.log,
    });
    app.decorate('ingest', ingest);
    app.decorate('deviceStatus', status);
    const mqtt = app.mqtt;
    if (mqtt) {
      mqtt.onMessage((topic, payload) => ingest.handle(topic, payload));
      mqtt.events.on('refused', (refusal) => ingest.reject(refusal.reason, { ...refusal }));
    }
    app.addHook('onClose', async () => {
      await mqtt?.close();
      await ingest.drain();
    });
  },
  { name: 'ingest', dependencies: ['devices'] },
);
