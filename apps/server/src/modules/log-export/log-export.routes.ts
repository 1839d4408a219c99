import type { minerLogEndpoints } from '@fbox/contracts';
import type { HandlersFor } from '../handler.js';

/** HTTP handlers of the miner log export (`admin/log/export`). */
export const logExportHandlers: HandlersFor<keyof typeof minerLogEndpoints> = {
  minerLogExport: ({ app, user, input }) => app.logExports.create(user, input),
  minerLogExportList: ({ app, user, input }) =>
    app.logExports.list(user, input.area_id, input.page, input.limit),
  minerLogExportItems: ({ app, user, input, lang }) => app.logExports.items(user, input, lang),
  minerLogExportCancel: ({ app, user, input }) => app.logExports.cancel(user, input.area_id, input.id),
  minerLogExportDelete: async ({ app, user, input }) => {
    await app.logExports.delete(user, input.area_id, input.id);
    return null;
  },
  minerLogExportDownload: ({ app, user, input, lang }) =>
    app.logExports.download(user, input.area_id, input.id, lang),
};
