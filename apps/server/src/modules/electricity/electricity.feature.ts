import { maintenanceLane } from '../../jobs/job-runner.js';
import { defineFeature } from '../feature.js';
import { electricityHandlers } from './electricity.routes.js';
import { ElectricityService } from './electricity.service.js';
import { electricityPriceMigration } from './electricity-price.migration.js';
import { ElectricityPriceService } from './electricity-price.service.js';
import { meterCorrectionsMigration } from './meter-correction.migration.js';
import { MeterCorrectionService } from './meter-correction.service.js';
import { meterEnergyBatchWrite } from './meter-energy.batch-write.js';
import { meterEnergyMigration } from './meter-energy.migration.js';
import { MeterEnergyService } from './meter-energy.service.js';
import { meterEnergyTotalsMigration } from './meter-energy-totals.migration.js';
import { powerDayRowsMigration } from './power-day-rows.migration.js';
import { powerDaysMigration } from './power-days.migration.js';

declare module 'fastify' {
  interface FastifyInstance {
    electricity: ElectricityService;
    meterEnergy: MeterEnergyService;
    electricityPrices: ElectricityPriceService;
  }
}

/** Electricity meters and power readings; energy per meter and hour counted at ingest. */
export const electricityFeature = defineFeature({
  name: 'electricity',
  migrations: (dialect) => ({
    '0020_meter_energy': meterEnergyMigration,
    '0022_electricity_prices': electricityPriceMigration,
    '0025_meter_corrections': meterCorrectionsMigration(dialect),
    '0026_meter_energy_totals': meterEnergyTotalsMigration,
    '0033_fbox_power_days': powerDaysMigration,
    '0036_fbox_power_day_rows': powerDayRowsMigration(dialect),
  }),
  register(app) {
    app.decorate(
      'electricity',
      new ElectricityService(app, new MeterCorrectionService({ db: app.db, dialect: app.dbDialect })),
    );
    const meterEnergy = new MeterEnergyService({
      db: app.db,
      dialect: app.dbDialect,
      areas: app.areas,
      clock: app.clock,
    });
    app.decorate('meterEnergy', meterEnergy);
    app.ingest.addBatchWrite(meterEnergyBatchWrite);
    // Settled days of the power statistics: forgotten where the hourly rollup rewrote their hours,
    // and dropped with the rollups past retention.
    app.onHoursRewritten((trx, table, from) => meterEnergy.hoursRewritten(trx, table, from));
    app.jobs.add({
      name: 'power-days-retention',
      periodMs: 60 * 60_000,
      lane: maintenanceLane,
      run: () => meterEnergy.pruneSettledDays(app.clock() - app.config.retention1hDays * 86_400_000),
    });
    // Price history: a new mine's first price, and a price edited in the mine form from now on.
    const prices = new ElectricityPriceService({
      db: app.db,
      dialect: app.dbDialect,
      clock: app.clock,
      areas: app.areas,
    });
    app.decorate('electricityPrices', prices);
    app.areas.onCreate((trx, mine) => prices.onMineCreated(trx, mine));
    app.areas.onEdit(async (trx, areaId, changes, user) => {
      if (changes.electricity_price !== undefined)
        await prices.onPriceEdited(trx, areaId, changes.electricity_price, user.id);
    });
  },
  handlers: electricityHandlers,
});
