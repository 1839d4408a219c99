import type { mineEndpoints } from '@fbox/contracts';
import type { HandlersFor } from '../../http/legacy/handler.js';

/** HTTP handlers: Mines, client keys, observer links and pool subaccounts. */
export const mineHandlers: HandlersFor<keyof typeof mineEndpoints> = {};
