import type { HandlersFor } from '../handler.js';
import { alarmHistoryExportFile } from './alarm.export.js';

/** Legacy HTTP handlers of the alarm center: alert lists, acknowledgement, silences and rules. */
export const alarmHandlers: HandlersFor<
  | 'alarmCurrent'
  | 'alarmHistory'
  | 'alarmHistoryExport'
  | 'alarmAck'
  | 'alarmSilence'
  | 'alertRuleList'
  | 'alertRuleSave'
  | 'alertRuleDelete'
> = {
  alarmCurrent: ({ app, user, input }) => app.alertList.current(user, input),
  alarmHistory: ({ app, user, input }) => app.alertList.history(user, input),
  alarmHistoryExport: ({ app, user, input, lang }) => alarmHistoryExportFile(app, user, input, lang),
  alarmAck: ({ app, user, input }) => app.alertList.ack(user, input),
  alarmSilence: ({ app, user, input }) => app.alertList.silence(user, input),
  alertRuleList: ({ app, user, input }) => app.alertRules.listFor(user, input),
  alertRuleSave: ({ app, user, input }) => app.alertRules.save(user, input),
  alertRuleDelete: ({ app, user, input }) => app.alertRules.delete(user, input),
};
