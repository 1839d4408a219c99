/**
 * Runs tasks one at a time per key (a miner's endpoint, a PDU, a host): a second write to a device
 * starts only after the first one finished, whether it succeeded or not. Tasks under different
 * keys run side by side. The map holds only keys with work in flight.
 */
export class KeyedQueue<K> {
  private readonly tails = new Map<K, Promise<unknown>>();

  /** Runs `task` after every earlier task under `key` has settled; resolves as `task` does. */
  run<T>(key: K, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(task, task);
    const settled = next.catch(() => undefined);
    this.tails.set(key, settled);
    void settled.then(() => {
      if (this.tails.get(key) === settled) this.tails.delete(key);
    });
    return next;
  }

  /** Keys with a task running or waiting. */
  get busy(): number {
    return this.tails.size;
  }
}
