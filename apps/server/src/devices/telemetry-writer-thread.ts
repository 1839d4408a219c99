import type { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseAddress, WriteGate } from '../db/database.js';
import { siblingModule, startWorker } from '../lib/worker-thread.js';
import type { BatchResult, BatchWriteModule, QueuedTelemetry, TelemetryStore } from './telemetry-writer.js';

/** What the thread is started with: the database and the batch writes to load. */
export interface WriterThreadData {
  address: DatabaseAddress;
  batchWrites: { url: string; name: string }[];
}

export type WriterRequest =
  | { type: 'write'; id: number; now: number; items: QueuedTelemetry[] }
  | { type: 'reset' }
  | { type: 'close' };

/** The thread's answers; a batch's messages are named by their place in the request's `items`. */
export type WriterReply =
  | { type: 'ready' }
  | {
      type: 'written';
      id: number;
      applied: number[];
      current: number[];
      cameOnline: number[];
      duplicates: number;
      samples: number;
    }
  | { type: 'failed'; id: number; message: string; code?: string };

type Written = Extract<WriterReply, { type: 'written' }>;

/** An error of the writer thread, as the thread reported it. */
export class WriterThreadError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'WriterThreadError';
  }
}

/**
 * Ingest with the write on a thread of its own (issue 17): the server's thread parses and checks
 * the gateways' messages and answers the API while a worker thread, with a connection of its own
 * (a pool of two on PostgreSQL), writes each batch (`TelemetryWriter`, the same code as in one
 * thread). better-sqlite3 is synchronous, so in one thread every batch held the event loop for as
 * long as it wrote; by default only SQLite uses the thread (`INGEST_WRITER_THREAD=auto`).
 *
 * On SQLite each batch is written in a turn of the database's `WriteGate`, so the server's own
 * writes wait as promises instead of in SQLite's busy handler. The thread starts with the first
 * batch (after the features added their batch writes) and again after it died; a batch it did not
 * answer fails, is not acknowledged, and the gateway sends it again.
 */
export class ThreadedTelemetryWriter implements TelemetryStore {
  private readonly batchWrites: BatchWriteModule[] = [];
  private started: Promise<Worker> | null = null;
  private readonly waiting = new Map<number, { resolve: (r: Written) => void; reject: (e: Error) => void }>();
  private serial = 0;

  constructor(
    private readonly options: {
      address: DatabaseAddress;
      /** SQLite: the process's turn to write, taken for each batch. */
      writeGate: WriteGate | undefined;
      log: FastifyBaseLogger;
    },
  ) {}

  addBatchWrite(write: BatchWriteModule): void {
    if (this.started) throw new Error('batch writes are added before the first batch');
    this.batchWrites.push(write);
  }

  async write(batch: QueuedTelemetry[], now: number): Promise<BatchResult> {
    const worker = await this.start();
    const release = (await this.options.writeGate?.acquire()) ?? (() => {});
    let written: Written;
    try {
      const id = ++this.serial;
      const items = batch.map(({ fbox, msg }) => ({ fbox, msg }));
      written = await new Promise<Written>((resolve, reject) => {
        this.waiting.set(id, { resolve, reject });
        worker.postMessage({ type: 'write', id, now, items } satisfies WriterRequest);
      });
    } finally {
      release();
    }
    const byId = new Map(batch.map((q) => [q.fbox.id, q.fbox]));
    return {
      applied: written.applied.map((i) => batch[i]!),
      current: new Set(written.current.map((i) => batch[i]!)),
      cameOnline: written.cameOnline.map((id) => byId.get(id)!),
      duplicates: written.duplicates,
      samples: written.samples,
    };
  }

  reset(): void {
    void this.started?.then(
      (worker) => worker.postMessage({ type: 'reset' } satisfies WriterRequest),
      () => {},
    );
  }

  async close(): Promise<void> {
    const started = this.started;
    this.started = null;
    const worker = await started?.catch(() => null);
    if (!worker) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage({ type: 'close' } satisfies WriterRequest);
    const timer = setTimeout(() => void worker.terminate(), 5000);
    await exited;
    clearTimeout(timer);
  }

  private start(): Promise<Worker> {
    if (this.started) return this.started;
    const data: WriterThreadData = {
      address: this.options.address,
      batchWrites: this.batchWrites.map(({ url, name }) => ({ url, name })),
    };
    const started = new Promise<Worker>((resolve, reject) => {
      const worker = startWorker(siblingModule(import.meta.url, 'telemetry-writer.worker'), data);
      worker.on('message', (reply: WriterReply) => {
        if (reply.type === 'ready') return resolve(worker);
        const waiting = this.waiting.get(reply.id);
        if (!waiting) {
          if (reply.type === 'failed') reject(new WriterThreadError(reply.message, reply.code));
          return;
        }
        this.waiting.delete(reply.id);
        if (reply.type === 'written') waiting.resolve(reply);
        else waiting.reject(new WriterThreadError(reply.message, reply.code));
      });
      worker.on('error', (error) => this.options.log.error({ err: error }, 'ingest writer thread failed'));
      worker.once('exit', (code) => {
        const lost = new WriterThreadError(`ingest writer thread exited (${code})`);
        reject(lost);
        for (const waiting of this.waiting.values()) waiting.reject(lost);
        this.waiting.clear();
        // The next batch starts a new thread, unless this was the close.
        if (this.started === started) this.started = null;
      });
    });
    this.started = started;
    return started;
  }
}
