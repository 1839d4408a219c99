import { topics } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CreatedFbox } from '../devices/device.service.js';
import { type QueuedTelemetry, TelemetryWriter } from '../devices/telemetry-writer.js';
import { buildTestApp, describeDb, type TestApp } from '../test/build-test-app.js';
import { createArea, createFbox, createMaster } from '../test/factories.js';
import { telemetry } from '../test/mqtt-client.js';
import { IngestService } from './ingest.service.js';

/** The real writer, held at a gate: batches wait until the test opens it, or fail when it says so. */
class GatedWriter extends TelemetryWriter {
  private open!: () => void;
  private gate = new Promise<void>((resolve) => {
    this.open = resolve;
  });
  failing = false;
  readonly batches: number[] = [];

  release(): void {
    this.open();
  }

  override async write(batch: QueuedTelemetry[], now: number) {
    this.batches.push(batch.length);
    await this.gate;
    if (this.failing) throw new Error('database unavailable');
    return super.write(batch, now);
  }
}

const settled = async (promises: Promise<void>[]) => {
  const states = promises.map(() => 'pending');
  for (const [i, p] of promises.entries()) {
    p.then(
      () => {
        states[i] = 'stored';
      },
      () => {
        states[i] = 'refused';
      },
    );
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
  return states;
};

/**
 * What a gateway is told, and when: `handle` resolves (and the transport acknowledges) only once the
 * message is committed; a full queue makes new telemetry wait instead of growing; a write that fails
 * is not acknowledged.
 */
describeDb('ingest acknowledgement and backpressure', () => {
  let t: TestApp;
  let fbox: CreatedFbox;
  let writer: GatedWriter;
  let ingest: IngestService;
  const minersPerMessage = 5;

  beforeEach(async () => {
    t = await buildTestApp();
    fbox = await createFbox(t.app, (await createArea(t.app, (await createMaster(t.app)).id)).id);
    writer = new GatedWriter(t.app.db, t.app.dbDialect);
    ingest = new IngestService(
      {
        writer,
        devices: t.app.devices,
        commands: t.app.commands,
        status: t.app.deviceStatus,
        live: t.app.live,
        clock: t.clock.now,
        log: t.app.log,
      },
      // Room for four messages' samples: the fifth waits.
      { maxMessages: 500, maxSamples: 20_000, maxQueuedSamples: 4 * minersPerMessage },
    );
  });
  afterEach(async () => {
    writer.release();
    await ingest.drain();
    await t.close();
  });

  const send = (seq: number) =>
    ingest.handle(
      topics.telemetry(fbox.device_id),
      Buffer.from(JSON.stringify(telemetry({ seq, ts: t.clock.ms + seq, miners: minersPerMessage }))),
    );

  it('acknowledges only what is committed, and holds new telemetry back while the queue is full', async () => {
    // The first message is taken by the writer (held at the gate); the next ones queue.
    const first = send(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const rest = Array.from({ length: 9 }, (_, i) => send(i + 2));
    const states = await settled([first, ...rest]);
    expect(states.every((s) => s === 'pending')).toBe(true);
    // Four queued behind the batch being written; the other five wait outside, unread.
    expect(ingest.backlog()).toEqual({ messages: 4, samples: 4 * minersPerMessage });

    writer.release();
    await Promise.all([first, ...rest]);
    const stored = await t.app.db
      .selectFrom('fbox_samples')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(10);
    expect(ingest.stats()).toMatchObject({ messages: 10, samples: 10 * minersPerMessage, failed: 0 });
    expect(ingest.backlog()).toEqual({ messages: 0, samples: 0 });
  });

  it('does not acknowledge a message it could not store', async () => {
    writer.failing = true;
    const message = send(1);
    writer.release();
    await expect(message).rejects.toThrow('database unavailable');
    expect(ingest.stats()).toMatchObject({ messages: 1, failed: 1, samples: 0 });
    // Sent again once the database is back, it is stored.
    writer.failing = false;
    await send(1);
    expect(ingest.stats()).toMatchObject({ samples: minersPerMessage });
  });
});
