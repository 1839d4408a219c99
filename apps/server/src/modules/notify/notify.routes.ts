import type { HandlersFor } from '../handler.js';

/** Handlers of the push endpoints (`fbox.notify`). */
export const notifyHandlers: HandlersFor<'notifyChannels' | 'notifyTest' | 'notifyLanguage' | 'notifyAlert'> =
  {
    notifyChannels: async ({ app }) => app.notify.configured(),
    notifyTest: ({ app, user, input, lang }) => app.notify.test(user, input.channel, lang),
    notifyLanguage: ({ app, user, lang }) => app.notify.setLanguage(user, lang),
    notifyAlert: ({ app, user, input, lang }) => app.notify.ofAlert(user, input, lang),
  };
