import { sharedEn } from '@fbox/contracts';
import { enCore } from './en-core';

/** English texts needed before sign-in, with those shared with the server. Loaded at start. */
export const texts: Record<string, string> = { ...sharedEn, ...enCore };
