import { defineFeature } from '../feature.js';
import { minerHandlers } from './miner.routes.js';
import { MinerService } from './miner.service.js';
import { minerHotMigration } from './miner-hot.migration.js';
import { minerModelIndexMigration } from './miner-model-index.migration.js';
import { minerListOrderMigration } from './miner-order.migration.js';
import { minerReadingsMigration } from './miner-readings.migration.js';
import { minerSearchMigration } from './miner-search.migration.js';
import { minerSortMigration } from './miner-sort.migration.js';
import { minerSplitMigration } from './miner-split.migration.js';
import { minerTrigramMigration } from './miner-trigram.migration.js';

declare module 'fastify' {
  interface FastifyInstance {
    miners: MinerService;
  }
}

/** Miners: the list, detail, history, bulk actions and export. */
export const minerFeature = defineFeature({
  name: 'miner',
  migrations: (dialect) => ({
    '0034_miner_list_area_order': minerListOrderMigration,
    '0035_miner_list_sort_indexes': minerSortMigration(dialect),
    '0038_miner_state_hot_updates': minerHotMigration(dialect),
    '0039_miner_state_readings_unindexed': minerReadingsMigration(dialect),
    '0040_miner_search': minerSearchMigration(dialect),
    '0041_miner_keyword_trigrams': minerTrigramMigration(dialect),
    '0042_miner_readings_table': minerSplitMigration(dialect),
    '0043_miner_model_index': minerModelIndexMigration(dialect),
  }),
  register(app) {
    app.decorate('miners', new MinerService(app));
  },
  handlers: minerHandlers,
});
