import { topics } from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import { afterEach, expect, it } from 'vitest';
import { appsOnOneDatabase, describeDb } from '../../test/build-test-app.js';
import { createArea, createFbox, createMaster } from '../../test/factories.js';
import { telemetry } from '../../test/mqtt-client.js';

const minute = 60_000;

/**
 * Two server instances on one database (on PostgreSQL over separate pools) storing one box's
 * consecutive messages at the same moments, each also redelivered to the other: every increase is
 * counted once, so the meter's energy is its last reading minus its first.
 */
describeDb('meter energy written by two processes on one database', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('counts each increase once', async () => {
    const world = await appsOnOneDatabase(2);
    close = world.close;
    const { apps, clock } = world;
    const [a, b] = apps as [FastifyInstance, FastifyInstance];
    const master = await createMaster(a);
    const area = await createArea(a, master.id);
    const fbox = await createFbox(a, area.id, { tanks: 0 });
    const start = clock.ms;
    let seq = 0;
    let kwh = 1000;
    const message = () => {
      clock.advance(minute);
      kwh += 7;
      const msg = telemetry({ seq: ++seq, ts: clock.ms, miners: 1 });
      msg.box.meters = [{ no: 1, energy_kwh: kwh, power_kw: 420 }];
      return Buffer.from(JSON.stringify(msg));
    };
    const topic = topics.telemetry(fbox.device_id);
    // The meter's first reading ever is its baseline, stored before the race: were the first two
    // readings raced, the newer could become the baseline and the older be skipped, which is the
    // rule for a first reading (docs/statistics.md), not a count lost between processes.
    const first = kwh + 7;
    await a.ingest.handle(topic, message());
    for (let i = 0; i < 60; i++) {
      const one = message();
      const two = message();
      await Promise.all([
        a.ingest.handle(topic, one),
        b.ingest.handle(topic, two),
        b.ingest.handle(topic, one),
        a.ingest.handle(topic, two),
      ]);
    }
    const rows = await b.meterEnergy.energyByPeriod({
      fboxIds: [fbox.id],
      from: start - 86_400_000,
      to: clock.ms + 86_400_000,
      bucket: 'month',
      tzOffsetMinutes: 0,
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.energy_kwh).toBeCloseTo(kwh - first, 6);
    expect(rows[0]!.resets).toBe(0);
  });
});
