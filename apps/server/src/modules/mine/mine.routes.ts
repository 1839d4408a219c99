import type { mineEndpoints } from '@fbox/contracts';
import type { HandlersFor } from '../handler.js';

/** HTTP handlers: Mines, client keys, observer links and pool subaccounts. */
export const mineHandlers: HandlersFor<keyof typeof mineEndpoints> = {
  mineList: ({ app, user }) => app.mines.list(user),
  mineDeletePreview: ({ app, user, input }) => app.mines.deletePreview(user.id, input.id),
  mineRegenerateAgentKey: ({ app, user, input }) => app.mines.regenerateAgentKey(user, input.id),
  mineClientList: ({ app, user, input }) => app.mines.clients(user, input.area_id),
  mineClientRevoke: ({ app, user, input }) => app.mines.revokeClient(user, input.area_id, input.id),
};
