import type { Logger } from './logger.js';

/** One event a `recordingLogger` kept. */
export interface LoggedEvent {
  level: 'debug' | 'info' | 'warn' | 'error';
  msg: string;
  obj: Record<string, unknown>;
}

/**
 * A logger that keeps every event, for tests that assert on what the collector said (a miner
 * offline and why, an outlet switched …). `messages(msg)` gives the fields of each event with
 * that message.
 */
export const recordingLogger = () => {
  const events: LoggedEvent[] = [];
  const at = (level: LoggedEvent['level']) => (obj: object, msg?: string) => {
    events.push({ level, msg: msg ?? '', obj: obj as Record<string, unknown> });
  };
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  const messages = (msg: string) => events.filter((e) => e.msg === msg).map((e) => e.obj);
  return { logger, events, messages };
};
