import type { cameraEndpoints } from '@fbox/contracts';
import type { HandlersFor } from '../handler.js';

/** HTTP handlers of the cameras (`zlm/…`). */
export const cameraHandlers: HandlersFor<keyof typeof cameraEndpoints> = {
  cameraList: ({ app, user, input }) => app.cameras.list(user, input.area_id, input.fbox_id),
  cameraSave: ({ app, user, input }) => app.cameras.save(user, input),
  cameraDelete: async ({ app, user, input }) => {
    await app.cameras.delete(user, input.area_id, input.id);
    return null;
  },
  cameraStatus: ({ app, user, input, lang }) => app.cameras.status(user, input.area_id, input.fbox_id, lang),
  cameraImages: ({ app, user, input }) => app.cameras.images(user, input),
  cameraImage: ({ app, user, input }) => app.cameras.image(user, input.area_id, input.id),
  cameraSettings: ({ app, user, input }) => app.cameras.settings(user, input.area_id),
  cameraSettingsSave: ({ app, user, input }) => app.cameras.saveSettings(user, input),
};
