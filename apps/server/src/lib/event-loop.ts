/**
 * Lets other work run (requests, ingest, timers) before going on. On SQLite a statement resolves
 * without waiting for I/O, so a chain of them never gives the event loop a turn by itself.
 */
export const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
