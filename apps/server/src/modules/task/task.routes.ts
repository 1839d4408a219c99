import type { taskEndpoints } from '@fbox/contracts';
import type { HandlersFor } from '../handler.js';
import { historyExportFile, itemsExportFile } from './task.export.js';

const temp = { type: 'temp', kind: 'temp' } as const;

/** HTTP handlers: Miner groups and tasks. */
export const taskHandlers: HandlersFor<keyof typeof taskEndpoints> = {
  minerGroupList: ({ app, user, input }) => app.minerGroups.list(user, input),
  minerGroupDetail: ({ app, user, input }) => app.minerGroups.detail(user, input),
  minerGroupMinerList: ({ app, user, input }) => app.minerGroups.miners(user, input),
  minerGroupAdd: ({ app, user, input }) => app.minerGroups.add(user, input),
  minerGroupEdit: ({ app, user, input }) => app.minerGroups.edit(user, input),
  minerGroupDelete: ({ app, user, input }) => app.minerGroups.delete(user, input),
  minerGroupAddMiner: ({ app, user, input }) => app.minerGroups.addMiners(user, input),
  minerGroupRemoveMiner: ({ app, user, input }) => app.minerGroups.removeMiners(user, input),

  rebootTaskList: ({ app, user, input }) => app.tasks.listReboot(user, input),
  rebootTaskHistoryList: ({ app, user, input }) =>
    app.tasks.history(user, input.area_id, { type: 'reboot', kind: input.kind }, input),
  rebootTaskHistoryExport: ({ app, user, input, lang }) =>
    historyExportFile(app, user, lang, { type: 'reboot', kind: input.kind }, input),
  rebootTaskHistoryItems: ({ app, user, input }) => app.tasks.items(user, input.area_id, 'reboot', input),
  rebootTaskHistoryItemsExport: ({ app, user, input, lang }) =>
    itemsExportFile(app, user, lang, 'reboot', input),
  rebootTaskAdd: ({ app, user, input }) => app.tasks.addReboot(user, input),
  rebootTaskUpdate: ({ app, user, input }) => app.tasks.updateReboot(user, input),
  rebootTaskStart: ({ app, user, input }) =>
    app.tasks.transitionReboot(user, input.area_id, input.id, 'start'),
  rebootTaskStop: ({ app, user, input }) => app.tasks.transitionReboot(user, input.area_id, input.id, 'stop'),
  rebootTaskDelete: async ({ app, user, input }) => {
    await app.tasks.transitionReboot(user, input.area_id, input.id, 'delete');
    return null;
  },

  tempTaskList: ({ app, user, input }) => app.tasks.listTemp(user, input),
  tempTaskHistoryList: ({ app, user, input }) => app.tasks.history(user, input.area_id, temp, input),
  tempTaskHistoryExport: ({ app, user, input, lang }) => historyExportFile(app, user, lang, temp, input),
  tempTaskHistoryItems: ({ app, user, input }) => app.tasks.items(user, input.area_id, 'temp', input),
  tempTaskHistoryItemsExport: ({ app, user, input, lang }) => itemsExportFile(app, user, lang, 'temp', input),
  tempTaskAdd: ({ app, user, input }) => app.tasks.addTemp(user, input),
  tempTaskUpdate: ({ app, user, input }) => app.tasks.updateTemp(user, input),
  tempTaskStart: ({ app, user, input }) => app.tasks.transitionTemp(user, input.area_id, input.id, 'start'),
  tempTaskStop: ({ app, user, input }) =>
    app.tasks.transitionTemp(user, input.area_id, input.id, 'stop', input.restore),
  tempTaskDelete: async ({ app, user, input }) => {
    await app.tasks.transitionTemp(user, input.area_id, input.id, 'delete', input.restore);
    return null;
  },
};
