import { ApiError } from '../cgminer/client.js';
import { KeyedQueue } from '../keyed-queue.js';
import { type Endpoint, endpointKey } from '../protocol.js';

/**
 * Runs writes to one miner one at a time (as `CgminerProtocol` does): a Whatsminer restarts its
 * mining program on several of them, and a second command sent meanwhile would race it.
 */
export class WriteQueue {
  private readonly queue = new KeyedQueue<string>();

  /** Runs `task` after every earlier write to the same miner has finished. */
  run<T>(endpoint: Endpoint, task: () => Promise<T>): Promise<T> {
    return this.queue.run(endpointKey(endpoint), task);
  }
}

/** Why a write could not be made: the device's refusal, an answer we cannot read, or no answer. */
export const writeFailure = (error: unknown): string => {
  const message = (error as Error).message;
  if (error instanceof ApiError && error.kind === 'refused') return message;
  if (error instanceof ApiError && error.kind === 'invalid') return `unexpected answer: ${message}`;
  return `miner unreachable: ${message}`;
};
