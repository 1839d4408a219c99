import { sharedZh } from '@fbox/contracts';
import { zhCore } from './zh-core';

/** Chinese texts needed before sign-in, with those shared with the server. Loaded at start. */
export const texts: Record<string, string> = { ...sharedZh, ...zhCore };
