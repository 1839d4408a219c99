import type { HandlersFor } from '../handler.js';

/** The inbox's endpoints: thin, the service scopes everything to the caller. */
export const messageHandlers: HandlersFor<'unreadCount' | 'inboxList' | 'inboxRead' | 'inboxReadAll'> = {
  unreadCount: ({ app, user, areaId }) => app.inbox.unread(user, areaId),
  inboxList: ({ app, user, input }) => app.inbox.list(user, input),
  inboxRead: ({ app, user, input }) => app.inbox.markRead(user, input.id),
  inboxReadAll: ({ app, user, input }) => app.inbox.markAllRead(user, input.area_id),
};
