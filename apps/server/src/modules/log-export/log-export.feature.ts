import { defineFeature } from '../feature.js';
import { LogExportEngine } from './log-export.engine.js';
import { logExportsMigration } from './log-export.migration.js';
import { logExportHandlers } from './log-export.routes.js';
import { LogExportService } from './log-export.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    logExports: LogExportService;
    logExportEngine: LogExportEngine;
  }
}

/** Miner log export (`/logs/minerLogs`, issue 15): miners' own logs fetched over MQTT into one zip. */
export const logExportFeature = defineFeature({
  name: 'log-export',
  migrations: (dialect) => ({ '0028_log_exports': logExportsMigration(dialect) }),
  register(app) {
    const engine = new LogExportEngine(app);
    app.decorate('logExports', new LogExportService(app));
    app.decorate('logExportEngine', engine);
    app.ingest.setLogPartHandler((fbox, payload) => engine.onLogPart(fbox, payload));
    app.jobs.add({ name: 'miner-log-exports', periodMs: 1_000, run: () => engine.run() });
  },
  handlers: logExportHandlers,
});
