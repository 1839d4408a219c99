import { defineFeature } from '../feature.js';
import { poolsMigration } from './pool.migration.js';
import { poolHandlers } from './pool.routes.js';
import { PoolService } from './pool.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    pools: PoolService;
  }
}

/** Pool observer links and pool subaccounts of a mine. */
export const poolFeature = defineFeature({
  name: 'pool',
  migrations: (dialect) => ({ '0011_pools': poolsMigration(dialect) }),
  register(app) {
    app.decorate('pools', new PoolService(app));
  },
  handlers: poolHandlers,
});
