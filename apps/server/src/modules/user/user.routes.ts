import { Code } from '@fbox/contracts';
import { ApiError } from '../../lib/api-error.js';
import type { HandlersFor } from '../handler.js';

const switchFields = ['auto_frequency', 'pool_config_status', 'min', 'max', 'delay_switch_value'] as const;

/** Legacy HTTP handlers of the base-info read and write. */
export const userHandlers: HandlersFor<'getUserInfo' | 'setUserInfo'> = {
  getUserInfo: ({ app, user, lang }) => app.users.getInfo(user.id, lang),
  setUserInfo: async ({ app, user, input, lang }) => {
    const switches = switchFields.some((field) => input[field] !== undefined);
    if (!switches) return app.users.setInfo(user.id, input, lang);
    // The account switches govern the master's mines: only the master account sets them.
    if (!user.isMaster) throw new ApiError(Code.FORBIDDEN, 'api.switchesMasterOnly');
    const before = await app.users.getInfo(user.id, lang);
    const after = await app.users.setInfo(user.id, input, lang);
    await app.accountSwitches.onChanged(user, before, after);
    return after;
  },
};
