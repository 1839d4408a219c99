import type { HandlersFor } from '../../http/legacy/handler.js';

/** Legacy HTTP handlers of the mine list and its master-only changes. */
export const areaHandlers: HandlersFor<'areaList' | 'areaCreate' | 'areaEdit' | 'areaDelete'> = {
  areaList: ({ app, user }) => app.areas.list(user),
  areaCreate: ({ app, user, input }) => app.areas.create(user.id, input),
  areaEdit: ({ app, user, input }) => app.areas.edit(user.id, input),
  areaDelete: async ({ app, user, input }) => {
    await app.areas.delete(user.id, input.id);
    return null;
  },
};
