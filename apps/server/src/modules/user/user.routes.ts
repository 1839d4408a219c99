import type { HandlersFor } from '../../http/legacy/handler.js';

/** Legacy HTTP handlers of the base-info read and write. */
export const userHandlers: HandlersFor<'getUserInfo' | 'setUserInfo'> = {
  getUserInfo: ({ app, user, lang }) => app.users.getInfo(user.id, lang),
  setUserInfo: ({ app, user, input, lang }) => app.users.setInfo(user.id, input, lang),
};
