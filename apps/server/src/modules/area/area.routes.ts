import type { HandlersFor } from '../handler.js';

/** Legacy HTTP handlers of the mine list and its changes (create and delete: masters; edit: `manage`). */
export const areaHandlers: HandlersFor<'areaList' | 'areaCreate' | 'areaEdit' | 'areaDelete'> = {
  areaList: ({ app, user }) => app.areas.list(user),
  areaCreate: ({ app, user, input }) => app.areas.create(user.id, input),
  areaEdit: ({ app, user, input }) => app.areas.edit(user, input),
  // Deleting also cuts off the mine's gateways and agents: the mines service does both.
  areaDelete: async ({ app, user, input }) => {
    await app.mines.delete(user.id, input.id);
    return null;
  },
};
