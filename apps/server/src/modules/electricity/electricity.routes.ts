import type { HandlersFor } from '../handler.js';
import { powerStatisticExportFile } from './power-statistic.export.js';

/** Legacy HTTP handlers of `fbox.electricity`. */
export const electricityHandlers: HandlersFor<
  | 'electricityIndex'
  | 'electricityGet'
  | 'electricitySetMeter'
  | 'meterCorrections'
  | 'powerStatistic'
  | 'powerStatisticExport'
  | 'electricityPriceList'
  | 'electricityPriceAdd'
  | 'electricityPriceDelete'
> = {
  electricityIndex: ({ app, user, input }) => app.electricity.index(user, input.area_id),
  electricityGet: ({ app, user, input }) => app.electricity.get(user, input.area_id, input.fbox_id),
  electricitySetMeter: ({ app, user, input }) => app.electricity.setMeter(user, input),
  meterCorrections: ({ app, user, input }) => app.electricity.corrections(user, input.area_id, input.fbox_id),
  powerStatistic: ({ app, user, input }) => app.meterEnergy.statistic(user, input),
  powerStatisticExport: ({ app, user, input, lang }) => powerStatisticExportFile(app, user, input, lang),
  electricityPriceList: ({ app, user, input }) => app.electricityPrices.list(user, input.area_id),
  electricityPriceAdd: ({ app, user, input }) => app.electricityPrices.add(user, input),
  electricityPriceDelete: ({ app, user, input }) => app.electricityPrices.delete(user, input),
};
