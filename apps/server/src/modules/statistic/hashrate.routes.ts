import type { HandlersFor } from '../handler.js';
import { hashrateExportFile } from './hashrate.export.js';

/** Legacy HTTP handlers of `fbox.statistic` (hashrate overview). */
export const statisticHandlers: HandlersFor<
  'hashrateOverview' | 'hashrateOverviewExport' | 'hashrateWorstMiners'
> = {
  hashrateOverview: ({ app, user, input }) => app.hashrate.overview(user, input),
  hashrateOverviewExport: ({ app, user, input, lang }) => hashrateExportFile(app, user, input, lang),
  hashrateWorstMiners: ({ app, user, input }) => app.hashrate.worst(user, input),
};
