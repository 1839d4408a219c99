import type { accountEndpoints } from '@fbox/contracts';
import type { HandlersFor } from '../../http/legacy/handler.js';

/** HTTP handlers: Sub-accounts. */
export const subAccountHandlers: HandlersFor<keyof typeof accountEndpoints> = {};
