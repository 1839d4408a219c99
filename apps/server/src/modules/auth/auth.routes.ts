import type { HandlersFor } from '../handler.js';

/** Legacy HTTP handlers of login, logout, password change and TOTP enrolment. */
export const authHandlers: HandlersFor<
  'login' | 'logout' | 'changePassword' | 'totpSetup' | 'totpEnable' | 'totpDisable'
> = {
  login: async ({ app, input, client }) => ({ logintoken: await app.auth.login(input, client) }),
  logout: async ({ app, user }) => {
    await app.auth.logout(user);
    return null;
  },
  changePassword: async ({ app, user, input }) => {
    await app.auth.changePassword(user, input.oldpassword, input.password);
    return null;
  },
  totpSetup: ({ app, user }) => app.auth.totpSetup(user),
  totpEnable: async ({ app, user, input }) => {
    await app.auth.totpEnable(user, input.code);
    return null;
  },
  totpDisable: async ({ app, user, input }) => {
    await app.auth.totpDisable(user, input.code);
    return null;
  },
};
