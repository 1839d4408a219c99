import { startSimulator } from '@fbox/simulator';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createArea, createFbox, createMaster, get, login, post } from '../../test/factories.js';
import { brokerUrl, waitFor } from '../../test/mqtt-client.js';

type Simulator = Awaited<ReturnType<typeof startSimulator>>;

/**
 * A saved configuration travels to a simulated gateway, which applies it (its telemetry period
 * changes) and acknowledges it; a gateway that cannot apply it refuses with its reason. The
 * overclock policy of Auto Overclock is acknowledged by every miner's gateway.
 */
describeDb('FBOX configuration round trip with the simulator', () => {
  let t: TestApp;
  let simulator: Simulator;
  let token: string;
  let areaId: number;
  let box: Awaited<ReturnType<typeof createFbox>>;
  let slowBox: Awaited<ReturnType<typeof createFbox>>;

  beforeAll(async () => {
    t = await buildTestApp({ mqtt: 'embedded', config: { commandTimeoutMs: 10_000 } });
    const master = await createMaster(t.app);
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id)).id;
    box = await createFbox(t.app, areaId, { kind: 'air', tanks: 0 });
    slowBox = await createFbox(t.app, areaId, { kind: 'air', tanks: 0 });
    simulator = await startSimulator({
      brokerUrl: brokerUrl(t.app),
      // Telemetry is stamped by the app's clock: ingest refuses times far from its own.
      clock: t.clock,
      intervalMs: 60_000,
      reportAfterCommandMs: 100,
      gateways: [
        {
          deviceId: box.device_id,
          username: box.mqtt_username,
          password: box.mqtt_password,
          kind: 'air',
          miners: 3,
        },
        {
          deviceId: slowBox.device_id,
          username: slowBox.mqtt_username,
          password: slowBox.mqtt_password,
          kind: 'air',
          miners: 2,
          minReportingIntervalS: 10,
        },
      ],
    });
    await waitFor(async () => {
      await t.app.ingest.drain();
      const n = await t.app.db.selectFrom('miner_state').select('miner_id').execute();
      return n.length === 5;
    }, 15_000);
  });

  afterAll(async () => {
    await simulator?.stop();
    await t?.close();
  });

  const save = async (id: number, body: Record<string, unknown>) =>
    (
      await post(
        t.app,
        '/ff-plat-api/api/admin/fbox/config/save',
        { area_id: areaId, id, ...body },
        { token },
      )
    ).json();
  const statusOf = async (commandId: string) => {
    let command: { status: string; error: string | null } | undefined;
    await waitFor(async () => {
      const res = (
        await get(t.app, '/index/fbox.command/status', { area_id: String(areaId), ids: commandId }, { token })
      ).json();
      command = res.data[0];
      return command !== undefined && command.status !== 'pending' && command.status !== 'sent';
    }, 10_000);
    return command!;
  };

  it('is applied and acknowledged by the gateway: its reporting period changes', async () => {
    const res = await save(box.id, { reporting_interval: 20, temperature_max: 48, delay_switch_value: 250 });
    expect(res.code).toBe(1);
    expect(await statusOf(res.data.command_id)).toMatchObject({ status: 'acknowledged', error: null });
    const gateway = simulator.gateway(box.device_id)!;
    expect(gateway.intervalMs).toBe(20_000);
    expect(gateway.model.config).toMatchObject({ temperature_max: 48, delay_switch_ms: 250 });
    const detail = (
      await post(
        t.app,
        '/ff-plat-api/api/admin/fbox/config/detail',
        { area_id: areaId, id: box.id },
        { token },
      )
    ).json();
    expect(detail.data.last_command).toMatchObject({ id: res.data.command_id, status: 'acknowledged' });
  });

  it('is refused with the reason by a gateway that cannot apply it', async () => {
    const res = await save(slowBox.id, { reporting_interval: 5 });
    expect(res.code).toBe(1);
    const command = await statusOf(res.data.command_id);
    expect(command.status).toBe('failed');
    expect(command.error).toMatch(/below this gateway's minimum of 10 s/);
    expect(simulator.gateway(slowBox.device_id)!.intervalMs).toBe(60_000);
  });

  it('delivers the overclock policy to every miner, acknowledged', async () => {
    expect(
      (
        await post(
          t.app,
          '/index/fbox.user/setuserinfo',
          { auto_frequency: 'on', min: 100, max: 200 },
          { token },
        )
      ).json().code,
    ).toBe(1);
    await waitFor(async () => {
      const policy = (await get(t.app, '/index/fbox.user/overclockpolicy', {}, { token })).json().data;
      return policy.counts.acknowledged === 5;
    }, 10_000);
    const miner = simulator.gateway(box.device_id)!.model.miners[0]!;
    expect(miner.overclock).toEqual({ enabled: true, min: 100, max: 200 });
  });
});
