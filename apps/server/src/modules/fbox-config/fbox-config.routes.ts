import type { fboxConfigEndpoints } from '@fbox/contracts';
import type { HandlersFor } from '../../http/legacy/handler.js';

/** HTTP handlers: FBOX defaults and configuration. */
export const fboxConfigHandlers: HandlersFor<keyof typeof fboxConfigEndpoints> = {};
