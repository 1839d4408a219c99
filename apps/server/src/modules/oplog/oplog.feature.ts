import { defineFeature } from '../feature.js';
import { oplogMigration } from './oplog.migration.js';
import { oplogHandlers } from './oplog.routes.js';
import { OplogService } from './oplog.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    oplog: OplogService;
  }
}

/** The operation log. */
export const oplogFeature = defineFeature({
  name: 'oplog',
  migrations: (dialect) => ({ '0009_operation_log': oplogMigration(dialect) }),
  register(app) {
    app.decorate('oplog', new OplogService(app));
  },
  handlers: oplogHandlers,
});
