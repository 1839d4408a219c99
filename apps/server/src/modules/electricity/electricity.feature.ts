import { defineFeature } from '../feature.js';
import { electricityHandlers } from './electricity.routes.js';
import { ElectricityService } from './electricity.service.js';
import { meterEnergyMigration } from './meter-energy.migration.js';
import { MeterEnergyService } from './meter-energy.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    electricity: ElectricityService;
    meterEnergy: MeterEnergyService;
  }
}

/** Electricity meters and power readings; energy per meter and hour counted at ingest. */
export const electricityFeature = defineFeature({
  name: 'electricity',
  migrations: () => ({ '0020_meter_energy': meterEnergyMigration }),
  register(app) {
    app.decorate('electricity', new ElectricityService(app));
    const meterEnergy = new MeterEnergyService({ db: app.db, dialect: app.dbDialect, areas: app.areas });
    app.decorate('meterEnergy', meterEnergy);
    app.ingest.addBatchWrite((trx, applied) => meterEnergy.record(trx, applied));
  },
  handlers: electricityHandlers,
});
