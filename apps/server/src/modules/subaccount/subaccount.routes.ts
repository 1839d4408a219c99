import type { accountEndpoints } from '@fbox/contracts';
import type { HandlersFor } from '../handler.js';

/** HTTP handlers: Sub-accounts (master only, see the contract) and the caller's rules and address. */
export const subAccountHandlers: HandlersFor<keyof typeof accountEndpoints> = {
  subAccountList: ({ app, user, input }) => app.subAccounts.list(user, input),
  subAccountCreate: ({ app, user, input }) => app.subAccounts.create(user, input),
  subAccountEdit: ({ app, user, input }) => app.subAccounts.edit(user, input),
  subAccountDelete: async ({ app, user, input }) => {
    await app.subAccounts.delete(user, input.id);
    return null;
  },
  ruleList: async ({ app, user }) => app.subAccounts.rules(user),
  realIp: async ({ client }) => ({ ip: client.ip ?? '' }),
};
