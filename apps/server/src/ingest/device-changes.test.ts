import { topics } from '@fbox/contracts';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CreatedFbox } from '../devices/device.service.js';
import { buildTestApp, describeDb, type TestApp, testBrokers } from '../test/build-test-app.js';
import { createArea, createFbox, createMaster, get, login, post } from '../test/factories.js';
import { brokerUrl, connectGateway, telemetry, waitFor } from '../test/mqtt-client.js';

/** Box changes made through the API take effect on ingest at once, not after the identity cache's TTL. */
describeDb('ingest after FBOX transfer, delete and password change', () => {
  for (const broker of testBrokers) {
    describe(`${broker} broker`, () => {
      let t: TestApp;
      let token: string;
      let fromArea: number;
      let toArea: number;
      let fbox: CreatedFbox;
      let gateway: MqttClient;

      beforeEach(async () => {
        t = await buildTestApp({ mqtt: broker });
        const master = await createMaster(t.app);
        token = await login(t.app, master);
        fromArea = (await createArea(t.app, master.id)).id;
        toArea = (await createArea(t.app, master.id)).id;
        fbox = await createFbox(t.app, fromArea, { tanks: 1 });
        gateway = await connectGateway(t.app, fbox);
      });
      afterEach(async () => {
        if (gateway.connected) await gateway.endAsync();
        else gateway.end(true);
        await t.close();
      });

      /** Publishes telemetry and waits until ingest has written (or rejected) it. */
      const send = async (seq: number, miners: number) => {
        const before = t.app.ingest.stats().messages;
        await gateway.publishAsync(
          topics.telemetry(fbox.device_id),
          JSON.stringify(telemetry({ seq, ts: t.clock.ms, miners, tanks: 1 })),
          { qos: 1 },
        );
        await waitFor(() => t.app.ingest.stats().messages > before);
        await t.app.ingest.drain();
      };
      const api = async (path: string, body: Record<string, unknown>) =>
        (await post(t.app, `/index/fbox.boxlist/${path}`, body, { token })).json();

      it('writes telemetry under the new area right after a transfer', async () => {
        await send(1, 2); // caches the box's identity (area `fromArea`) in ingest
        expect(await api('transfer', { area_id: fromArea, id: fbox.id, to_area_id: toArea })).toMatchObject({
          code: 1,
        });
        // The transfer closes the gateway's session on the embedded broker; it comes back as the new
        // mine's, like a real gateway.
        if (t.app.mqttBroker) {
          await waitFor(() => !gateway.connected);
          gateway = await connectGateway(t.app, fbox);
        }
        // Same second, well inside the cache's 30 s: a third miner appears and all report.
        await send(2, 3);
        const states = await t.app.db
          .selectFrom('miner_state')
          .select(['sn', 'area_id'])
          .orderBy('sn')
          .execute();
        expect(states).toEqual([
          { sn: 'SN-0', area_id: toArea },
          { sn: 'SN-1', area_id: toArea },
          { sn: 'SN-2', area_id: toArea },
        ]);
        const miners = await t.app.db.selectFrom('miners').select('area_id').execute();
        expect(miners.every((m) => m.area_id === toArea)).toBe(true);
        const list = (
          await get(
            t.app,
            '/index/fbox.miner/index',
            { area_id: String(toArea), limit: '50', page: '1' },
            { token },
          )
        ).json();
        expect(list.data.total).toBe(3);
        const old = (
          await get(
            t.app,
            '/index/fbox.miner/index',
            { area_id: String(fromArea), limit: '50', page: '1' },
            { token },
          )
        ).json();
        expect(old.data.total).toBe(0);
      });

      it('refuses telemetry of a deleted box at once', async () => {
        await send(1, 2);
        const rejected = t.app.ingest.stats().rejected;
        expect(await api('deleted', { area_id: fromArea, id: fbox.id })).toMatchObject({ code: 1 });
        if (broker === 'embedded') {
          // Its account is gone and its session closed; a new connection is refused.
          await waitFor(() => !gateway.connected);
          await expect(
            connectAsync(brokerUrl(t.app), {
              username: fbox.mqtt_username,
              password: fbox.mqtt_password,
              reconnectPeriod: 0,
            }),
          ).rejects.toThrow();
        } else {
          await send(2, 2);
          expect(t.app.ingest.stats().rejected).toBe(rejected + 1);
        }
        expect(await t.app.db.selectFrom('miner_state').selectAll().execute()).toEqual([]);
      });

      if (broker === 'embedded') {
        it('closes the gateway’s session when its MQTT password is regenerated', async () => {
          await send(1, 1);
          const closed = new Promise<void>((resolve) => gateway.once('close', () => resolve()));
          const res = await api('regenerate_mqtt', { area_id: fromArea, id: fbox.id });
          expect(res.code).toBe(1);
          await closed;
          await expect(
            connectAsync(brokerUrl(t.app), {
              username: fbox.mqtt_username,
              password: fbox.mqtt_password,
              reconnectPeriod: 0,
            }),
          ).rejects.toThrow();
          gateway = await connectGateway(t.app, { ...fbox, mqtt_password: res.data.mqtt_password });
          await send(2, 1);
          expect(t.app.ingest.stats().samples).toBe(2);
          // Another box's gateway is untouched.
          expect(t.app.devices.revoke('fb-unknown')).toBe(0);
        });
      }
    });
  }
});
