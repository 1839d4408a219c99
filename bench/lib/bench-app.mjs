// The server as the benches build it: no logger, no demo, a data folder of the bench's own, the
// embedded broker (when asked for) on a free port, and the periodic jobs (rollups, retention,
// statistics) only when asked for. INGEST_WRITER_THREAD (0, 1, auto) says where telemetry is
// written, as the server's own variable does (to compare both in one build).
import { buildApp } from '../../apps/server/dist/app.js';

/** Builds the server on `dir` (its SQLite file), or on `database` (an open PostgreSQL schema). */
export const buildBenchApp = ({ dir, mqtt = false, jobs = false, database, databaseUrl }) =>
  buildApp({
    logger: false,
    mqtt,
    jobs,
    seed: false,
    ...(database && { database }),
    config: {
      dataDir: dir,
      databaseUrl,
      mqttUrl: undefined,
      mqttPort: 0,
      mqttPortExplicit: true,
      host: '127.0.0.1',
      demo: false,
      webDist: dir,
      ingestWriterThread: { 0: false, 1: true }[process.env.INGEST_WRITER_THREAD] ?? 'auto',
    },
  });
