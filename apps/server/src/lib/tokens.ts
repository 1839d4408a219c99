import { createHash, randomBytes } from 'node:crypto';

/** A session token: 32 random bytes (256 bits) as base64url. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** Tokens are stored only as their SHA-256, so a leaked table does not leak sessions. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A readable random password for the generated master account. */
export const newPassword = (): string => randomBytes(12).toString('base64url');
