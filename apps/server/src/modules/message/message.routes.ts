import type { HandlersFor } from '../../http/legacy/handler.js';

export const messageHandlers: HandlersFor<'unreadCount'> = {
  unreadCount: ({ app, user, areaId }) => app.messages.unread(user.id, areaId),
};
