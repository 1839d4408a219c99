/**
 * The logging the simulator needs. Shaped like pino's `(obj, msg)` so a pino/Fastify logger can be
 * passed in as is.
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

/** A line-per-event logger on stderr: `time level msg {json}`. */
export const consoleLogger = (level: LogLevel = 'info'): Logger => {
  const min = level === 'silent' ? levels.length : levels.indexOf(level);
  const make =
    (name: (typeof levels)[number]) =>
    (obj: object, msg?: string): void => {
      if (levels.indexOf(name) < min) return;
      const fields = Object.keys(obj).length ? ` ${JSON.stringify(obj, errorReplacer)}` : '';
      process.stderr.write(
        `${new Date().toISOString()} ${name.toUpperCase().padEnd(5)} ${msg ?? ''}${fields}\n`,
      );
    };
  return { debug: make('debug'), info: make('info'), warn: make('warn'), error: make('error') };
};

const errorReplacer = (_key: string, value: unknown): unknown =>
  value instanceof Error ? { message: value.message, code: (value as { code?: unknown }).code } : value;
