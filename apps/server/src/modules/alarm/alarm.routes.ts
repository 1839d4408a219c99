import type { HandlersFor } from '../handler.js';

/** Legacy HTTP handlers of the alert lists (`fbox.warnning`, `fbox.history`). */
export const alarmHandlers: HandlersFor<'alarmCurrent' | 'alarmHistory' | 'alarmAck'> = {
  alarmCurrent: ({ app, user, input }) => app.alertList.current(user, input),
  alarmHistory: ({ app, user, input }) => app.alertList.history(user, input),
  alarmAck: ({ app, user, input }) => app.alertList.ack(user, input),
};
