import type { RouteDescriptor } from '../../lib/route-types';

/** Path of the Messages screen (the top bar's badge opens it). */
export const messagesPath = '/messages';

/**
 * Messages (catalogue screen, issue 13): the user's inbox. Spec §2 shows no route for it, so it sits
 * beside the menu: the top bar's notification badge opens it.
 */
export const messagesRoute: RouteDescriptor = {
  path: messagesPath,
  layout: 'main',
  page: () => import('./MessagesPage').then((m) => m.MessagesPage),
  meta: { titleKey: 'inbox.route.title', hidden: true },
};
