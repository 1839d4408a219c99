import type { HandlersFor } from '../handler.js';

/** Legacy HTTP handlers of `fbox.boxlist`. */
export const fboxHandlers: HandlersFor<
  | 'fboxList'
  | 'fboxDetail'
  | 'fboxOptions'
  | 'fboxHistory'
  | 'fboxCreate'
  | 'fboxEdit'
  | 'fboxDelete'
  | 'fboxTransfer'
  | 'fboxSetting'
  | 'fboxRegenerateMqtt'
> = {
  fboxList: ({ app, user, input }) => app.fboxes.list(user, input),
  fboxDetail: ({ app, user, input, lang }) => app.fboxes.detail(user, input.area_id, input.id, lang),
  fboxOptions: ({ app, user, input }) => app.fboxes.options(user, input.area_id),
  fboxHistory: ({ app, user, input }) => app.fboxes.history(user, input),
  fboxCreate: ({ app, user, input, lang }) => app.fboxes.create(user, input, lang),
  fboxEdit: ({ app, user, input, lang }) => app.fboxes.edit(user, input, lang),
  fboxDelete: async ({ app, user, input }) => {
    await app.fboxes.delete(user, input.area_id, input.id);
    return null;
  },
  fboxTransfer: async ({ app, user, input }) => {
    await app.fboxes.transfer(user, input.area_id, input.id, input.to_area_id);
    return null;
  },
  // The box setting is one FBOX configuration save (modules/fbox-config).
  fboxSetting: ({ app, user, input }) => app.fboxConfig.saveSetting(user, input),
  fboxRegenerateMqtt: ({ app, user, input }) => app.fboxes.regenerateMqtt(user, input.area_id, input.id),
};
