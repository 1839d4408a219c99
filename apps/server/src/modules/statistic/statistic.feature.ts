import { maintenanceLane, rollupShare } from '../../jobs/job-runner.js';
import { defineFeature } from '../feature.js';
import { fleetHourlyMigration } from './hashrate.migration.js';
import { statisticHandlers } from './hashrate.routes.js';
import { HashrateService } from './hashrate.service.js';
import { hashrateDaysMigration } from './hashrate-days.migration.js';
import { pruneHashrate, rollupHashrate } from './hashrate-rollup.js';
import './hashrate.schema.js';

declare module 'fastify' {
  interface FastifyInstance {
    hashrate: HashrateService;
  }
}

/**
 * Statistics screens' storage and reads (issue 14): the hashrate overview's hourly rollups, kept
 * by a job of their own every minute, and its endpoints.
 */
export const statisticFeature = defineFeature({
  name: 'statistic',
  migrations: () => ({
    '0023_fleet_hourly': fleetHourlyMigration,
    '0037_fleet_hashrate_days': hashrateDaysMigration,
  }),
  register(app) {
    const { db, clock, config } = app;
    app.decorate('hashrate', new HashrateService({ db, dialect: app.dbDialect, areas: app.areas, clock }));
    app.jobs.add({
      name: 'hashrate-rollup',
      periodMs: 60_000,
      lane: maintenanceLane,
      maxShare: rollupShare,
      run: () => rollupHashrate(db, clock(), config.retentionRawHours * 3_600_000),
    });
    app.jobs.add({
      name: 'hashrate-retention',
      periodMs: 60 * 60_000,
      lane: maintenanceLane,
      run: () => pruneHashrate(db, clock(), config.retention1hDays),
    });
  },
  handlers: statisticHandlers,
});
