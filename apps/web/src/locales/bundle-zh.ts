import { sharedZh } from '@fbox/contracts';
import { zh } from './zh';

/** Every Chinese text: the web's plus those shared with the server. Loaded on demand. */
export const texts: Record<string, string> = { ...sharedZh, ...zh };
