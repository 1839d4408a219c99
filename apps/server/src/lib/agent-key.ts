import { randomBytes } from 'node:crypto';

/** 128 random bits as 32 hex digits: the password site agents of a mine log in with. */
export const newAgentKey = (): string => randomBytes(16).toString('hex');
