import { defineFeature } from '../feature.js';
import { AccountSwitchService } from './account-switches.service.js';
import { fboxConfigMigration } from './fbox-config.migration.js';
import { fboxConfigHandlers } from './fbox-config.routes.js';
import { FboxConfigService } from './fbox-config.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    fboxConfig: FboxConfigService;
    accountSwitches: AccountSwitchService;
  }
}

/** FBOX configuration and the account switches (Auto Overclock, Lock Pool). */
export const fboxConfigFeature = defineFeature({
  name: 'fbox-config',
  migrations: () => ({ '0008_fbox_config': fboxConfigMigration }),
  register(app) {
    app.decorate('fboxConfig', new FboxConfigService(app));
    app.decorate('accountSwitches', new AccountSwitchService(app));
  },
  handlers: fboxConfigHandlers,
});
