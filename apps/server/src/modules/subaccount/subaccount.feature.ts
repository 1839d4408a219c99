import { defineFeature } from '../feature.js';
import { subAccountHandlers } from './subaccount.routes.js';
import { SubAccountService } from './subaccount.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    subAccounts: SubAccountService;
  }
}

/** Sub-accounts of a master account. */
export const subaccountFeature = defineFeature({
  name: 'subaccount',
  register(app) {
    app.decorate('subAccounts', new SubAccountService(app.db, app.clock));
  },
  handlers: subAccountHandlers,
});
