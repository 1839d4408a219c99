import type { fboxConfigEndpoints } from '@fbox/contracts';
import type { HandlersFor } from '../handler.js';

/** HTTP handlers: FBOX defaults per mine, one FBOX's configuration, the overclock policy. */
export const fboxConfigHandlers: HandlersFor<keyof typeof fboxConfigEndpoints> = {
  fboxDefaultsList: ({ app, user, input }) => app.fboxConfig.listDefaults(user, input.area_id),
  fboxDefaultsSave: ({ app, user, input }) => app.fboxConfig.saveDefaults(user, input),
  fboxDefaultsRemove: ({ app, user, input }) => app.fboxConfig.removeDefaults(user, input.area_id),
  fboxConfigDetail: ({ app, user, input }) => app.fboxConfig.detail(user, input.area_id, input.id),
  fboxConfigSave: ({ app, user, input }) => app.fboxConfig.save(user, input),
  overclockPolicy: ({ app, user }) => app.accountSwitches.overclockPolicy(user),
};
