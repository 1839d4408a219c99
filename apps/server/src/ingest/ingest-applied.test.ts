import { topics } from '@fbox/contracts';
import type { MqttClient } from 'mqtt';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CreatedFbox } from '../devices/device.service.js';
import { buildTestApp, describeDb, type TestApp } from '../test/build-test-app.js';
import { createArea, createFbox, createMaster } from '../test/factories.js';
import { connectGateway, telemetry, waitFor } from '../test/mqtt-client.js';
import type { AppliedTelemetry } from './ingest.service.js';

describeDb('ingest tells listeners what a committed batch stored', () => {
  let t: TestApp;
  let fbox: CreatedFbox;
  let gateway: MqttClient;
  let heard: AppliedTelemetry[];
  beforeEach(async () => {
    t = await buildTestApp({ mqtt: 'embedded' });
    const master = await createMaster(t.app);
    const area = await createArea(t.app, master.id);
    fbox = await createFbox(t.app, area.id, { tanks: 1 });
    gateway = await connectGateway(t.app, fbox);
    heard = [];
    t.app.ingest.onApplied((applied) => void heard.push(...applied));
  });
  afterEach(async () => {
    await gateway.endAsync();
    await t.close();
  });

  /** Publishes at QoS 1: resolves on the PUBACK, which comes only after the commit. */
  const publish = (seq: number, ts: number, hashrate = 100) =>
    gateway.publishAsync(
      topics.telemetry(fbox.device_id),
      JSON.stringify(telemetry({ seq, ts, miners: 2, tanks: 1, hashrate })),
      { qos: 1 },
    );

  it('hands over the stored values once the batch is committed, and never for a duplicate', async () => {
    await publish(1, t.clock.ms, 90);
    await waitFor(() => heard.length === 1);
    const [first] = heard;
    expect(first).toMatchObject({ fbox: { id: fbox.id, area_id: fbox.area_id }, latest: true });
    expect(first!.msg.seq).toBe(1);
    // What the listener got is what the state rows hold.
    const miners = await t.app.db
      .selectFrom('miner_state')
      .select(['sn', 'hashrate_realtime'])
      .where('fbox_id', '=', fbox.id)
      .orderBy('sn')
      .execute();
    expect(miners).toEqual(
      first!.msg.miners.map((m) => ({ sn: m.sn, hashrate_realtime: m.hashrate_realtime })),
    );
    const box = await t.app.db
      .selectFrom('fbox_state')
      .select(['temperature', 'last_seq'])
      .where('fbox_id', '=', fbox.id)
      .executeTakeFirstOrThrow();
    expect(box).toEqual({ temperature: first!.msg.box.temperature, last_seq: 1 });

    // The same message again (a gateway that missed our PUBACK) is acknowledged, not announced.
    await publish(1, t.clock.ms, 90);
    await t.app.ingest.drain();
    expect(t.app.ingest.stats().duplicates).toBe(1);
    expect(heard).toHaveLength(1);
  });

  it('marks a late message as history only, and a failing listener breaks nothing', async () => {
    const failing: number[] = [];
    t.app.ingest.onApplied(() => {
      failing.push(1);
      throw new Error('listener bug');
    });
    await publish(2, t.clock.ms);
    // Acknowledged although a listener threw; an older message after it fills history only.
    await publish(1, t.clock.ms - 60_000);
    await waitFor(() => heard.length === 2);
    expect(heard.map((a) => [a.msg.seq, a.latest])).toEqual([
      [2, true],
      [1, false],
    ]);
    expect(failing).toHaveLength(2);
    const box = await t.app.db
      .selectFrom('fbox_state')
      .select('last_seq')
      .where('fbox_id', '=', fbox.id)
      .executeTakeFirstOrThrow();
    expect(box.last_seq).toBe(2);
  });

  it('stops calling a listener once it unsubscribes', async () => {
    const late: AppliedTelemetry[] = [];
    const off = t.app.ingest.onApplied((applied) => void late.push(...applied));
    await publish(1, t.clock.ms);
    await waitFor(() => late.length === 1);
    off();
    await publish(2, t.clock.ms + 1000);
    await waitFor(() => heard.length === 2);
    expect(late).toHaveLength(1);
  });
});
