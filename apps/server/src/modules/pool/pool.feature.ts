import { defineFeature } from '../feature.js';
import { poolsMigration } from './pool.migration.js';
import { poolHandlers } from './pool.routes.js';
import { PoolService } from './pool.service.js';
import { PoolSync } from './pool-sync.js';
import { poolSyncMigration } from './pool-sync.migration.js';

declare module 'fastify' {
  interface FastifyInstance {
    pools: PoolService;
    poolSync: PoolSync;
  }
}

/** Pool observer links and pool subaccounts of a mine, and what the pools report for them. */
export const poolFeature = defineFeature({
  name: 'pool',
  migrations: (dialect) => ({ '0011_pools': poolsMigration(dialect), '0021_pool_sync': poolSyncMigration }),
  register(app) {
    const sync = new PoolSync({ db: app.db, clock: app.clock, secrets: app.secrets, log: app.log });
    app.decorate('poolSync', sync);
    app.decorate('pools', new PoolService(app));
    app.jobs.add({ name: 'pool-sync', periodMs: 60_000, run: async () => sync.kick() });
    app.addHook('onClose', () => sync.stop());
  },
  handlers: poolHandlers,
});
