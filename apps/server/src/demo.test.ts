import { startSimulator } from '@fbox/simulator';
import { expect, it } from 'vitest';
import { demoAreaName, startDemoSimulator } from './demo.js';
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

  it('a restarted demo simulator counts its meters on from where they stood, not from a reset', async () => {
    const t = await buildTestApp({ mqtt: 'embedded' });
    // The demo's gateways stamp messages with the real clock.
    t.clock.ms = Date.now();
    const areaId = (await createArea(t.app, (await createMaster(t.app)).id, demoAreaName)).id;
    const fbox = await createFbox(t.app, areaId, { name: 'Air 01', kind: 'air', tanks: 0 });
    const registers = () =>
      t.app.db
        .selectFrom('meter_reading_state')
        .select(['no', 'ts', 'energy_kwh'])
        .where('fbox_id', '=', fbox.id)
        .orderBy('no')
        .execute();
    const reportOnce = async (demo: NonNullable<Awaited<ReturnType<typeof startDemoSimulator>>>) => {
      const seen = Math.max(0, ...(await registers()).map((r) => Number(r.ts)));
      t.clock.ms = Date.now();
      await demo.simulator.gateways[0]!.publishTelemetry();
      await waitFor(async () => {
        await t.app.ingest.flush();
        const rows = await registers();
        return rows.length === 2 && rows.every((r) => Number(r.ts) > seen);
      });
      return registers();
    };
    // The demo ran before: its meters had counted far beyond the values a fresh register starts at.
    await t.app.db
      .insertInto('meter_reading_state')
      .values(
        [1, 2].map((no) => ({
          fbox_id: fbox.id,
          no,
          ts: t.clock.ms - 60_000,
          energy_kwh: 500_000,
          cum_energy_kwh: 0,
          cum_resets: 0,
          cum_readings: 1,
        })),
      )
      .execute();
    const demo = await startDemoSimulator(t.app);
    try {
      const after = await reportOnce(demo!);
      for (const row of after) expect(Number(row.energy_kwh)).toBeGreaterThanOrEqual(500_000);
      const resets = await t.app.db
        .selectFrom('meter_energy_hourly')
        .select('resets')
        .where('fbox_id', '=', fbox.id)
        .execute();
      expect(resets.every((r) => Number(r.resets) === 0)).toBe(true);
    } finally {
      await demo?.stop();
      await t.close();
    }
  });
});
