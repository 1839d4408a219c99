import type { HandlersFor } from '../handler.js';

/** Legacy HTTP handlers of `fbox.oillist`. */
export const tankHandlers: HandlersFor<
  | 'tankList'
  | 'tankDetail'
  | 'tankSearch'
  | 'tankOptions'
  | 'tankHistory'
  | 'tankAdd'
  | 'tankEdit'
  | 'tankDelete'
  | 'tankOilSetting'
  | 'tankControllerSwitch'
  | 'tankControllerSwitchV2'
  | 'tankMultipleOperate'
> = {
  tankList: ({ app, user, input }) => app.tanks.list(user, input),
  tankDetail: ({ app, user, input }) => app.tanks.detail(user, input.area_id, input.id),
  tankSearch: ({ app, user, input }) => app.tanks.search(user, input.area_id, input.keyword),
  tankOptions: ({ app, user, input }) => app.tanks.options(user, input.area_id, input.fbox_id),
  tankHistory: ({ app, user, input }) => app.tanks.history(user, input),
  tankAdd: ({ app, user, input }) => app.tanks.add(user, input),
  tankEdit: ({ app, user, input }) => app.tanks.edit(user, input),
  tankDelete: async ({ app, user, input }) => {
    await app.tanks.delete(user, input.area_id, input.id);
    return null;
  },
  tankOilSetting: ({ app, user, input }) =>
    app.tanks.oilSetting(user, input.area_id, input.id, input.energy_saving),
  tankControllerSwitch: ({ app, user, input }) =>
    app.tanks.controllerSwitch(user, input.area_id, input.id, input.control_mode),
  tankControllerSwitchV2: ({ app, user, input }) => app.tanks.controllerSwitchV2(user, input),
  tankMultipleOperate: ({ app, user, input }) =>
    app.tanks.multipleOperate(user, input.area_id, input.ids, input.action),
};
