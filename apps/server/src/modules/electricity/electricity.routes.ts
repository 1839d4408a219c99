import type { HandlersFor } from '../handler.js';

/** Legacy HTTP handlers of `fbox.electricity`. */
export const electricityHandlers: HandlersFor<
  'electricityIndex' | 'electricityGet' | 'electricitySetMeter' | 'powerStatistic'
> = {
  electricityIndex: ({ app, user, input }) => app.electricity.index(user, input.area_id),
  electricityGet: ({ app, user, input }) => app.electricity.get(user, input.area_id, input.fbox_id),
  electricitySetMeter: ({ app, user, input }) => app.electricity.setMeter(user, input),
  powerStatistic: ({ app, user, input }) => app.meterEnergy.statistic(user, input),
};
