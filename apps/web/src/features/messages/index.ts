/** What other parts of the app use from the inbox: the badge's count, its query keys (live), the route. */
export { messageKeys, unreadCountQuery, useUnreadCount } from './api';
export { messagesPath, messagesRoute } from './routes';
