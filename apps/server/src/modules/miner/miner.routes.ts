import type { HandlersFor } from '../handler.js';
import { minerExportFile } from './miner.csv.js';
import { actionCommands } from './miner.service.js';

/** Legacy HTTP handlers of `fbox.miner`; `export` answers a CSV file (see miner.csv.ts). */
export const minerHandlers: HandlersFor<
  | 'minerList'
  | 'minerDetail'
  | 'minerFilterOptions'
  | 'minerHistory'
  | 'minerExport'
  | 'minerDelete'
  | 'minerRestart'
  | 'minerChangePool'
  | 'minerResaveAccount'
  | 'minerAutoOverclock'
  | 'minerChangeMode'
  | 'minerMultipleOperate'
> = {
  minerList: ({ app, user, input }) => app.miners.list(user, input),
  minerDetail: ({ app, user, input }) => app.miners.detail(user, input.area_id, input.id),
  minerFilterOptions: ({ app, user, input }) => app.miners.filterOptions(user, input.area_id),
  minerHistory: ({ app, user, input }) => app.miners.history(user, input),
  minerExport: ({ app, user, input, lang }) => minerExportFile(app, user, input, lang),
  minerDelete: ({ app, user, input }) => app.miners.delete(user, input.area_id, input.ids),
  minerRestart: ({ app, user, input }) =>
    app.miners.act(user, input.area_id, input.ids, actionCommands.restart),
  minerChangePool: ({ app, user, input }) =>
    app.miners.act(user, input.area_id, input.ids, {
      kind: 'miner.pool',
      params: { pool_address: input.pool_address, worker: input.worker },
      // Send-only: the gateway gets it, the commands table and the API never see it (DESIGN §9).
      ...(input.password !== undefined && { secretParams: { password: input.password } }),
    }),
  minerResaveAccount: ({ app, user, input }) =>
    app.miners.act(user, input.area_id, input.ids, actionCommands.resave),
  minerAutoOverclock: ({ app, user, input }) =>
    app.miners.act(user, input.area_id, input.ids, {
      kind: 'miner.overclock',
      params: {
        status: input.status,
        ...(input.min !== undefined && { min: input.min }),
        ...(input.max !== undefined && { max: input.max }),
      },
    }),
  minerChangeMode: ({ app, user, input }) =>
    app.miners.act(user, input.area_id, input.ids, { kind: 'miner.mode', params: { mode: input.mode } }),
  minerMultipleOperate: ({ app, user, input }) =>
    app.miners.act(user, input.area_id, input.ids, actionCommands[input.action]),
};
