/** The operation log: every state-changing call, read-only. */
export const oplogEndpoints = {} as const;
