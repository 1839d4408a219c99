import type { FastifyInstance } from 'fastify';
import { type CommandRecord, commandView } from '../../devices/command.service.js';
import type { SessionUser } from '../auth/auth.service.js';
import type { HandlersFor } from '../handler.js';

/** The areas a command lookup may see: the named one (checked), else every area of the caller. */
const scopeOf = async (app: FastifyInstance, user: SessionUser, areaId: number | undefined) =>
  areaId !== undefined
    ? [(await app.areas.requireAccess(user, areaId)).id]
    : (await app.areas.list(user)).map((a) => a.id);

const byCreation = (a: CommandRecord, b: CommandRecord) =>
  a.created_at - b.created_at || a.id.localeCompare(b.id);

/** Legacy HTTP handlers of command status (the web polls these after a device action). */
export const commandHandlers: HandlersFor<'commandStatus' | 'commandBatch'> = {
  commandStatus: async ({ app, user, input }) => {
    const records = await app.commands.get([...new Set(input.ids)], await scopeOf(app, user, input.area_id));
    return records.sort(byCreation).map(commandView);
  },
  commandBatch: async ({ app, user, input }) => {
    const records = await app.commands.batch(input.batch_id, await scopeOf(app, user, input.area_id));
    return records.sort(byCreation).map(commandView);
  },
};
