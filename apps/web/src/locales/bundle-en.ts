import { sharedEn } from '@fbox/contracts';
import { en } from './en';

/** Every English text: the web's plus those shared with the server. Loaded on demand. */
export const texts: Record<string, string> = { ...sharedEn, ...en };
