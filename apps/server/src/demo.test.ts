import { startSimulator } from '@fbox/simulator';
import { expect, it } from 'vitest';
import { buildTestApp, describeDb } from './test/build-test-app.js';
import { createArea, createFbox, createMaster } from './test/factories.js';
import { brokerUrl, waitFor } from './test/mqtt-client.js';

describeDb('simulator against the embedded broker', () => {
  it('fills miner state from a simulated gateway and gets a restart acknowledged', async () => {
    const t = await buildTestApp({ mqtt: 'embedded' });
    const areaId = (await createArea(t.app, (await createMaster(t.app)).id)).id;
    const fbox = await createFbox(t.app, areaId, { tanks: 2 });
    const simulator = await startSimulator({
      brokerUrl: brokerUrl(t.app),
      // Telemetry is stamped by the app's clock: ingest refuses times far from its own.
      clock: t.clock,
      intervalMs: 1000,
      gateways: [
        {
          deviceId: fbox.device_id,
          username: fbox.mqtt_username,
          password: fbox.mqtt_password,
          tanks: 2,
          minersPerTank: 5,
        },
      ],
    });
    try {
      const miners = () => t.app.db.selectFrom('miner_state').select(['miner_id', 'sn', 'tank_id']).execute();
      await waitFor(async () => {
        await t.app.ingest.flush();
        return (await miners()).length === 10;
      });
      expect((await miners()).every((m) => m.tank_id !== null)).toBe(true);
      const miner = (await miners())[0]!;
      const command = await t.app.commands.issue({
        areaId,
        fboxId: fbox.id,
        minerId: miner.miner_id,
        kind: 'miner.restart',
        target: { sn: miner.sn },
        params: {},
        userId: null,
      });
      await waitFor(
        async () => (await t.app.commands.get([command.id], [areaId]))[0]!.status === 'acknowledged',
      );
    } finally {
      await simulator.stop();
      await t.close();
    }
  });
});
