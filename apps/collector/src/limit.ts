/**
 * Runs `task` over `items` with at most `concurrency` in flight, in order of `items`; resolves
 * when all are settled. A task's failure is its own: it never stops the others (the task returns
 * its outcome, errors included).
 */
export const forEachLimited = async <T>(
  items: readonly T[],
  concurrency: number,
  task: (item: T, index: number) => Promise<void>,
): Promise<void> => {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      try {
        await task(items[index]!, index);
      } catch {
        // The task reports its own failures; one never holds up the rest.
      }
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker);
  await Promise.all(workers);
};

/** Resolves after `ms`, without holding the process open. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());
