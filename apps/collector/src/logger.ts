/**
 * The collector's logging: one line per event. Shaped like pino's `(obj, msg)`, so a pino or
 * Fastify logger can be passed in as is (the server's tests do).
 */
export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

const noop = (): void => {};
export const silentLogger: Logger = { debug: noop, info: noop, warn: noop, error: noop };

const levels = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof levels)[number] | 'silent';

const errorReplacer = (_key: string, value: unknown): unknown =>
  value instanceof Error ? { message: value.message, code: (value as { code?: unknown }).code } : value;

/** `2026-01-01T00:00:00.000Z INFO  miner new {"sn":…}` on stdout (journald keeps it as is). */
export const lineLogger = (
  level: LogLevel = 'info',
  write = (line: string) => process.stdout.write(line),
) => {
  const min = level === 'silent' ? levels.length : levels.indexOf(level);
  const make =
    (name: (typeof levels)[number]) =>
    (obj: object, msg?: string): void => {
      if (levels.indexOf(name) < min) return;
      const fields = Object.keys(obj).length ? ` ${JSON.stringify(obj, errorReplacer)}` : '';
      write(`${new Date().toISOString()} ${name.toUpperCase().padEnd(5)} ${msg ?? ''}${fields}\n`);
    };
  const logger: Logger = {
    debug: make('debug'),
    info: make('info'),
    warn: make('warn'),
    error: make('error'),
  };
  return logger;
};
