import type { HandlersFor } from '../handler.js';

/** Legacy HTTP handlers of the home summary and the ingest counters. */
export const totalHandlers: HandlersFor<'appIndex' | 'ingestStats'> = {
  appIndex: ({ app, user, input }) => app.totals.appIndex(user, input.area_id),
  // The account's own devices only: other tenants' traffic is not theirs to see.
  ingestStats: async ({ app, user }) => ({ ...app.ingest.stats(user.masterId) }),
};
