import fp from 'fastify-plugin';
import { StatusRepository } from '../devices/status.repository.js';
import { TelemetryWriter } from '../devices/telemetry-writer.js';
import { ThreadedTelemetryWriter } from '../devices/telemetry-writer-thread.js';
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
    // Batches are written on a thread of its own: by default on SQLite only, whose driver is
    // synchronous (docs/performance.md "Telemetry written on a thread of its own"); never for an
    // in-memory SQLite database, which has one connection only.
    const address = app.dbAddress;
    const thread = app.config.ingestWriterThread;
    const writer =
      (thread === 'auto' ? address.dialect === 'sqlite' : thread) &&
      !(address.dialect === 'sqlite' && address.file === ':memory:')
        ? new ThreadedTelemetryWriter({ address, writeGate: app.dbWriteGate, log: app.log })
        : new TelemetryWriter(app.db, app.dbDialect);
    const ingest = new IngestService(
      {
        writer,
        devices: app.devices,
        commands: app.commands,
        status,
        live: app.live,
        clock: app.clock,
        log: app.log,
      },
      {
        maxMessages: 500,
        // A batch holds the event loop while it is built, and on SQLite while it is written too
        // (better-sqlite3 is synchronous): about 50 ms for 2,000 samples on a 2-core machine. Larger
        // batches store a little more per second and make every API call behind them wait (offered
        // 100,000 samples/s on SQLite: 20,000-sample batches 47,000/s stored and API p99 3.3 s;
        // 2,000 about 41,000/s and 70–110 ms. PostgreSQL 66,000/s: 20,000 → 20,800/s, 200 ms;
        // 5,000 → 19,700/s, 110 ms). With the SQLite writer thread a batch is built and written
        // there, but still handed over and answered here: 5,000 held API calls longer than 2,000
        // (100,000/s offered, one run: p99 141 / 123 ms against 61–78 ms) and stored no more.
        maxSamples: app.dbDialect === 'sqlite' ? 2_000 : 5_000,
        // Parsed samples waiting for the writer; beyond it a gateway's telemetry waits unparsed and
        // nothing more is read from it. Several batches, so the writer never waits for parsing.
        maxQueuedSamples: 20_000,
      },
    );
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
      await writer.close();
    });
  },
  { name: 'ingest', dependencies: ['devices'] },
);
