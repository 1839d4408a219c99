import type { HandlersFor } from '../handler.js';

export const messageHandlers: HandlersFor<'unreadCount'> = {
  unreadCount: ({ app, user, areaId }) => app.messages.unread(user.id, areaId),
};
