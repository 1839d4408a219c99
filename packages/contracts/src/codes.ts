/**
 * Business outcome codes of the API envelope (DESIGN §5, spec §8). HTTP status stays 200 for all of
 * them; only unknown routes are a real HTTP 404.
 */
export const Code = {
  OK: 1,
  LOGIN_FAILED: -1,
  VALIDATION: -2,
  NOT_FOUND: -3,
  FORBIDDEN: -4,
  CONFLICT: -5,
  RATE_LIMITED: -6,
  TOTP_INVALID: -7,
  SERVER_ERROR: -500,
  NOT_LOGGED_IN: -9000,
} as const;

export type CodeName = keyof typeof Code;
export type CodeValue = (typeof Code)[CodeName];
