import { parentPort, workerData } from 'node:worker_threads';
import { openAddress } from '../db/database.js';
import { type QueuedTelemetry, TelemetryWriter } from './telemetry-writer.js';
import type { WriterReply, WriterRequest, WriterThreadData } from './telemetry-writer-thread.js';

/**
 * The ingest writer thread (see `ThreadedTelemetryWriter`): a `TelemetryWriter` on a SQLite
 * connection of its own, writing the batches the server's thread sends, one at a time.
 */
const port = parentPort!;
const { address, batchWrites } = workerData as WriterThreadData;
const reply = (message: WriterReply) => port.postMessage(message);

try {
  // On SQLite its transactions begin by taking the write lock: they read, then write, and another
  // connection's commit in between would leave them unable to write.
  const database = openAddress(address);
  const writer = new TelemetryWriter(database.db, database.dialect);
  for (const { url, name } of batchWrites) writer.addBatchWrite((await import(url))[name]);

  const write = async (id: number, items: QueuedTelemetry[], now: number) => {
    try {
      const result = await writer.write(items, now);
      const index = new Map(items.map((q, i) => [q, i]));
      reply({
        type: 'written',
        id,
        applied: result.applied.map((q) => index.get(q)!),
        current: [...result.current].map((q) => index.get(q)!),
        cameOnline: result.cameOnline.map((fbox) => fbox.id),
        duplicates: result.duplicates,
        samples: result.samples,
      });
    } catch (error) {
      const { message, code } = error as Error & { code?: string };
      reply({ type: 'failed', id, message: String(message ?? error), code });
    }
  };

  port.on('message', (request: WriterRequest) => {
    if (request.type === 'write') void write(request.id, request.items, request.now);
    else if (request.type === 'reset') writer.reset();
    else void database.close().then(() => port.close());
  });
  reply({ type: 'ready' });
} catch (error) {
  reply({ type: 'failed', id: 0, message: (error as Error).message ?? String(error) });
}
