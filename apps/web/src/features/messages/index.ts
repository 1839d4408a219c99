export { messageKeys, unreadCountQuery, useUnreadCount } from './api';
