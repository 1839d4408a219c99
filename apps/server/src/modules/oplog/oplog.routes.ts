import type { oplogEndpoints } from '@fbox/contracts';
import type { HandlersFor } from '../../http/legacy/handler.js';

/** HTTP handlers: Operation log. */
export const oplogHandlers: HandlersFor<keyof typeof oplogEndpoints> = {};
