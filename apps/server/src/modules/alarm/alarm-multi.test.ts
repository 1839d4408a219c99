import { type AlertMetric, topics } from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import { afterEach, expect, it } from 'vitest';
import { appsOnOneDatabase, describeDb } from '../../test/build-test-app.js';
import { createArea, createFbox, createMaster } from '../../test/factories.js';
import { telemetry } from '../../test/mqtt-client.js';

const s = 1000;

/**
 * Two server instances on one database evaluating the same box at the same moments (on PostgreSQL
 * over separate pool connections): each alert opens once.
 */
describeDb('alert evaluation in two processes on one database', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('opens each alert once, whichever process sees the condition', async () => {
    const world = await appsOnOneDatabase(2);
    close = world.close;
    const { apps, clock } = world;
    const [a, b] = apps as [FastifyInstance, FastifyInstance];
    const master = await createMaster(a);
    const area = await createArea(a, master.id);
    const fbox = await createFbox(a, area.id, { tanks: 1 });
    let seq = 0;
    const send = async (app: FastifyInstance, temperature: number) => {
      const msg = telemetry({ seq: ++seq, ts: clock.ms, miners: 2, tanks: 1 });
      msg.box.temperature = temperature;
      await app.ingest.handle(topics.telemetry(fbox.device_id), Buffer.from(JSON.stringify(msg)));
      await app.alarms.settled();
    };
    const opened = (metric: AlertMetric) =>
      a.db.selectFrom('alerts').select(['device_id', 'ended_at']).where('metric', '=', metric).execute();

    await send(a, 50);
    clock.advance(60 * s);
    await Promise.all([send(a, 51), send(b, 52), send(a, 53), send(b, 54)]);
    expect(await opened('fbox_temp_high')).toEqual([{ device_id: fbox.id, ended_at: null }]);

    // Offline: detected once (a leased job), fired by both processes' jobs at once.
    clock.advance(90 * s);
    await a.deviceStatus.detectSilence();
    await a.alarms.settled();
    clock.advance(300 * s);
    const counts = await Promise.all([a.alarms.openDueOffline(), b.alarms.openDueOffline()]);
    expect(counts[0] + counts[1]).toBe(3);
    expect(await opened('fbox_offline')).toHaveLength(1);
    expect(await opened('miner_offline')).toHaveLength(2);
    expect(await Promise.all([a.alarms.openDueOffline(), b.alarms.openDueOffline()])).toEqual([0, 0]);
  });
});
