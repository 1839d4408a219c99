import type { poolEndpoints } from '@fbox/contracts';
import type { HandlersFor } from '../handler.js';

/** HTTP handlers: observer links (`fbox.pool`) and pool subaccounts (`admin/area/pool`). */
export const poolHandlers: HandlersFor<keyof typeof poolEndpoints> = {
  observerLinkList: ({ app, user, input }) => app.pools.listLinks(user, input),
  observerLinkCreate: ({ app, user, input }) => app.pools.createLink(user, input),
  observerLinkDelete: async ({ app, user, input }) => {
    await app.pools.deleteLink(user, input.area_id, input.id);
    return null;
  },
  poolSubaccountList: ({ app, user, input }) => app.pools.listSubaccounts(user, input),
  poolSubaccountSave: ({ app, user, input }) => app.pools.saveSubaccount(user, input),
  poolSubaccountRemove: async ({ app, user, input }) => {
    await app.pools.removeSubaccount(user, input.area_id, input.id);
    return null;
  },
};
