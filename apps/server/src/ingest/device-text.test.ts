import { topics } from '@fbox/contracts';
import type { MqttClient } from 'mqtt';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CreatedFbox } from '../devices/device.service.js';
import { buildTestApp, describeDb, type TestApp } from '../test/build-test-app.js';
import { createArea, createFbox, createMaster } from '../test/factories.js';
import { connectGateway, telemetry, waitFor } from '../test/mqtt-client.js';

/**
 * Device text with U+0000 or other control characters (issue 10 item 7): PostgreSQL cannot store
 * U+0000, so such a message was acknowledged and then dropped by the batch writer. The contract
 * strips control characters from device text: the message is stored, the rest of the text kept.
 */
describeDb('device text with control characters', () => {
  let t: TestApp;
  let fbox: CreatedFbox;
  let gateway: MqttClient;

  beforeEach(async () => {
    t = await buildTestApp({ mqtt: 'embedded' });
    const area = await createArea(t.app, (await createMaster(t.app)).id);
    fbox = await createFbox(t.app, area.id, { tanks: 1, reporting_interval_s: 30 });
    gateway = await connectGateway(t.app, fbox);
  });
  afterEach(async () => {
    await gateway.endAsync();
    await t.close();
  });

  it('stores a telemetry message whose miner text carries U+0000, without it', async () => {
    const message = telemetry({ seq: 1, ts: t.clock.ms, miners: 2 });
    const [first, second] = message.miners;
    Object.assign(first!, { worker: 'acct\u0000.w1', pool: 'Via\u0000BTC', fault: '\u0000' });
    Object.assign(second!, { sn: 'SN\u0000-1', model: 'S19\u0007 Pro', firmware: 'fw\u001b[0m' });
    message.box.public_ip = '203.0.113.7\u0000';
    await gateway.publishAsync(topics.telemetry(fbox.device_id), JSON.stringify(message), { qos: 1 });
    await waitFor(() => t.app.ingest.stats().messages >= 1);
    await t.app.ingest.drain();
    const miners = await t.app.db
      .selectFrom('miner_state')
      .select(['sn', 'worker', 'pool', 'fault', 'model', 'firmware'])
      .orderBy('sn')
      .execute();
    expect(miners).toEqual([
      { sn: 'SN-0', worker: 'acct.w1', pool: 'ViaBTC', fault: '', model: 'S19 Pro', firmware: '2024.1' },
      { sn: 'SN-1', worker: 'acct.1x1', pool: 'ViaBTC', fault: '', model: 'S19 Pro', firmware: 'fw[0m' },
    ]);
    expect(await t.app.db.selectFrom('miner_samples').select('miner_id').execute()).toHaveLength(2);
  });
});
