import type { taskEndpoints } from '@fbox/contracts';
import type { HandlersFor } from '../../http/legacy/handler.js';

/** HTTP handlers: Miner groups and tasks. */
export const taskHandlers: HandlersFor<keyof typeof taskEndpoints> = {};
