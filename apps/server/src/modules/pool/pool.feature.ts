import { defineFeature } from '../feature.js';
import { poolsMigration } from './pool.migration.js';
import { poolHandlers } from './pool.routes.js';
import { PoolService } from './pool.service.js';
import { PoolSync } from './pool-sync.js';
import { poolSyncMigration } from './pool-sync.migration.js';
import { revenueSettingsMigration } from './revenue.migration.js';
import { revenueHandlers } from './revenue.routes.js';
import { RevenueService } from './revenue.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    pools: PoolService;
    poolSync: PoolSync;
    revenue: RevenueService;
  }
}

/** Pool observer links and pool subaccounts of a mine, what the pools report for them, and revenue. */
export const poolFeature = defineFeature({
  name: 'pool',
  migrations: (dialect) => ({
    '0011_pools': poolsMigration(dialect),
    '0021_pool_sync': poolSyncMigration,
    '0024_revenue_settings': revenueSettingsMigration,
  }),
  register(app) {
    const sync = new PoolSync({ db: app.db, clock: app.clock, secrets: app.secrets, log: app.log });
    app.decorate('poolSync', sync);
    app.decorate('pools', new PoolService(app));
    app.jobs.add({ name: 'pool-sync', periodMs: 60_000, run: async () => sync.kick() });
    app.addHook('onClose', () => sync.stop());
    const revenue = new RevenueService(app);
    app.decorate('revenue', revenue);
    // Price addresses of the revenue settings, read in the background, each mine claimed first.
    app.jobs.add({ name: 'revenue-price', periodMs: 60_000, run: async () => revenue.kickPrices() });
    app.addHook('onClose', () => revenue.stop());
  },
  handlers: { ...poolHandlers, ...revenueHandlers },
});
