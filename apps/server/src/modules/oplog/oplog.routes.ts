import type { oplogEndpoints } from '@fbox/contracts';
import type { HandlersFor } from '../handler.js';
import { oplogExportFile } from './oplog.csv.js';

/** HTTP handlers: Operation log (read-only: there is no endpoint that edits or deletes a record). */
export const oplogHandlers: HandlersFor<keyof typeof oplogEndpoints> = {
  oplogList: ({ app, user, input, lang }) => app.oplog.list(user, input, lang),
  oplogUsers: ({ app, user }) => app.oplog.users(user),
  oplogExport: ({ app, user, input, lang }) => oplogExportFile(app, user, input, lang),
};
