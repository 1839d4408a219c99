import type { revenueEndpoints } from '@fbox/contracts';
import type { HandlersFor } from '../handler.js';
import { revenueExportFile } from './revenue.export.js';

/** HTTP handlers of the revenue statistics (`fbox.statistic`). */
export const revenueHandlers: HandlersFor<keyof typeof revenueEndpoints> = {
  revenueSettings: ({ app, user, input }) => app.revenue.settings(user, input.area_id),
  revenueSettingsSave: ({ app, user, input }) => app.revenue.saveSettings(user, input),
  revenue: ({ app, user, input }) => app.revenue.revenue(user, input),
  revenueExport: ({ app, user, input, lang }) => revenueExportFile(app, user, input, lang),
};
