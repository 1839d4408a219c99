import { areaHandlers } from '../../modules/area/area.routes.js';
import { authHandlers } from '../../modules/auth/auth.routes.js';
import { messageHandlers } from '../../modules/message/message.routes.js';
import { userHandlers } from '../../modules/user/user.routes.js';
import type { HandlerMap } from './handler.js';

/** Every endpoint of the contract with its handler; the type makes a missing one a compile error. */
export const legacyHandlers: HandlerMap = {
  ...authHandlers,
  ...userHandlers,
  ...areaHandlers,
  ...messageHandlers,
};
