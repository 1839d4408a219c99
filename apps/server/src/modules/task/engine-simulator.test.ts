import { startSimulator } from '@fbox/simulator';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createArea, createFbox, createMaster, login, type TestUser } from '../../test/factories.js';
import { brokerUrl, waitFor } from '../../test/mqtt-client.js';
import { addGroup, api, items } from '../../test/task-engine-harness.js';

type Simulator = Awaited<ReturnType<typeof startSimulator>>;
const s = 1000;

/**
 * The watchdog against the simulator over the real broker: a miner forced to low hashrate reaches
 * the engine through telemetry, is restarted after the duration (not before) and the simulated
 * gateway executes and acknowledges; a PDU task switches the simulated outlet off and on again.
 */
describeDb('task engine with the simulator', () => {
  let t: TestApp;
  let simulator: Simulator;
  let master: TestUser;
  let token: string;
  let areaId: number;
  let fbox: Awaited<ReturnType<typeof createFbox>>;

  const minerRows = () =>
    t.app.db
      .selectFrom('miner_state')
      .select(['miner_id', 'sn', 'hashrate_realtime', 'outlet'])
      .orderBy('miner_id')
      .execute();
  const settle = (check: () => Promise<boolean>) =>
    waitFor(async () => {
      await t.app.ingest.flush();
      return check();
    }, 10_000);

  beforeAll(async () => {
    t = await buildTestApp({ mqtt: 'embedded' });
    // The simulated miners run on real time; ingest refuses telemetry stamped far from the app's
    // clock, so the app's clock starts at the real time and the test moves it forward from there.
    t.clock.ms = Date.now();
    master = await createMaster(t.app);
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id)).id;
    fbox = await createFbox(t.app, areaId, { tanks: 1 });
    simulator = await startSimulator({
      brokerUrl: brokerUrl(t.app),
      intervalMs: 60_000,
      reportAfterCommandMs: 100,
      restartMs: 60_000,
      gateways: [
        {
          deviceId: fbox.device_id,
          username: fbox.mqtt_username,
          password: fbox.mqtt_password,
          tanks: 1,
          minersPerTank: 3,
        },
      ],
    });
    await settle(async () => (await minerRows()).length === 3);
  });
  afterAll(async () => {
    await simulator?.stop();
    await t?.close();
  });

  const gateway = () => simulator.gateways[0]!;
  const simMiner = (sn: string) => gateway().model.miners.find((m) => m.sn === sn)!;
  /** One engine tick at clock time `at`, then waits for the gateway to acknowledge what it sent. */
  const tickAt = async (at: number) => {
    t.clock.ms = at;
    await t.app.taskEngine.tick();
    await waitFor(async () => (await items(t.app)).every((i) => i.status !== 'pending'), 10_000);
  };

  it('restarts the miner forced low after the duration, through the simulated gateway', async () => {
    const [low, fine] = await minerRows();
    simMiner(low!.sn).degrade(0.05);
    await gateway().publishTelemetry();
    await settle(async () => (await minerRows())[0]!.hashrate_realtime < 20);
    expect((await minerRows())[1]!.hashrate_realtime).toBeGreaterThan(50);

    const groupId = await addGroup(t.app, token, areaId, { name: 'Row', type: 'miner_reboot' }, [
      low!.miner_id,
      fine!.miner_id,
    ]);
    const start = t.clock.ms;
    const task = await api(t.app, token, 'taskReboot/add', {
      area_id: areaId,
      kind: 'miner',
      name: 'Watchdog',
      hashrate_threshold: 50,
      duration_seconds: 120,
      reboot_interval_seconds: 1800,
      reboot_limit: 1,
      start_at: start,
      end_at: start + 3_600_000,
      simultaneous_count: 10,
      batch_interval_seconds: 0,
      group_ids: [groupId],
    });
    for (let at = start; at < start + 120 * s; at += 15 * s) await tickAt(at);
    expect(await items(t.app, task.id)).toHaveLength(0);
    expect(gateway().stats().commandsReceived).toBe(0);

    await tickAt(start + 120 * s);
    const [item] = await items(t.app, task.id);
    expect(item).toMatchObject({ miner_id: low!.miner_id, action: 'restart', status: 'acknowledged' });
    expect(gateway().stats()).toMatchObject({ commandsReceived: 1, commandsOk: 1 });
    expect(simMiner(low!.sn).bootUntil).not.toBeNull();
    // The limit (1) holds however long it stays low.
    for (let at = start + 135 * s; at < start + 600 * s; at += 15 * s) await tickAt(at);
    expect(await items(t.app, task.id)).toHaveLength(1);
    simMiner(low!.sn).degrade(null);
  });

  it('PDU task switches the outlet off, then on after the wait', async () => {
    const rows = await minerRows();
    const target = rows[2]!;
    simMiner(target.sn).degrade(0.05);
    await gateway().publishTelemetry();
    await settle(async () => (await minerRows())[2]!.hashrate_realtime < 20);
    const groupId = await addGroup(t.app, token, areaId, { name: 'Outlets', type: 'pdu_reboot' }, [
      target.miner_id,
    ]);
    const start = t.clock.ms;
    const task = await api(t.app, token, 'taskReboot/add', {
      area_id: areaId,
      kind: 'pdu',
      name: 'Power cycle',
      hashrate_threshold: 50,
      duration_seconds: 30,
      reboot_interval_seconds: 1800,
      reboot_limit: 1,
      start_at: start,
      end_at: start + 3_600_000,
      simultaneous_count: 1,
      batch_interval_seconds: 0,
      power_off_seconds: 20,
      group_ids: [groupId],
    });
    const received = gateway().stats().commandsReceived;
    await tickAt(start);
    await tickAt(start + 30 * s);
    expect((await items(t.app, task.id)).map((i) => [i.action, i.status])).toEqual([
      ['power_off', 'acknowledged'],
    ]);
    expect(simMiner(target.sn).powered).toBe(false);
    await tickAt(start + 49 * s);
    expect(simMiner(target.sn).powered).toBe(false);
    await tickAt(start + 50 * s);
    expect((await items(t.app, task.id)).map((i) => [i.action, i.status])).toEqual([
      ['power_off', 'acknowledged'],
      ['power_on', 'acknowledged'],
    ]);
    expect(simMiner(target.sn).powered).toBe(true);
    expect(gateway().stats().commandsReceived - received).toBe(2);
    simMiner(target.sn).degrade(null);
  });
});
