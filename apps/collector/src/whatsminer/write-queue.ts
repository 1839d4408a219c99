import { ApiError } from '../cgminer/client.js';
import { type Endpoint, endpointKey } from '../protocol.js';

/**
 * Runs writes to one miner one at a time (as `CgminerProtocol` does): a Whatsminer restarts its
 * mining program on several of them, and a second command sent meanwhile would race it.
 */
export class WriteQueue {
  private readonly writes = new Map<string, Promise<unknown>>();

  /** Runs `task` after every earlier write to the same miner has finished. */
  run<T>(endpoint: Endpoint, task: () => Promise<T>): Promise<T> {
    const key = endpointKey(endpoint);
    const previous = this.writes.get(key) ?? Promise.resolve();
    const next = previous.then(task, task);
    const settled = next.catch(() => undefined);
    this.writes.set(key, settled);
    void settled.then(() => {
      if (this.writes.get(key) === settled) this.writes.delete(key);
    });
    return next;
  }
}

/** Why a write could not be made: the device's refusal, an answer we cannot read, or no answer. */
export const writeFailure = (error: unknown): string => {
  const message = (error as Error).message;
  if (error instanceof ApiError && error.kind === 'refused') return message;
  if (error instanceof ApiError && error.kind === 'invalid') return `unexpected answer: ${message}`;
  return `miner unreachable: ${message}`;
};
