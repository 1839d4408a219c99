import type { CommandKind } from '@fbox/contracts';
import { startSimulator } from '@fbox/simulator';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../test/build-test-app.js';
import { createArea, createFbox, createMaster } from '../test/factories.js';
import { brokerUrl, waitFor } from '../test/mqtt-client.js';
import type { CommandTarget } from './command.service.js';

type Simulator = Awaited<ReturnType<typeof startSimulator>>;

/**
 * Every command kind travels the whole way: command row → MQTT → the simulated gateway acts → ack →
 * row acknowledged → the effect shows in the next telemetry. Plus a refusal and a timeout.
 */
describeDb('command round trip with the simulator', () => {
  let t: TestApp;
  let simulator: Simulator;
  let areaId: number;
  let fbox: Awaited<ReturnType<typeof createFbox>>;

  const miners = () =>
    t.app.db
      .selectFrom('miner_state')
      .select(['miner_id', 'sn', 'mode', 'pool_address', 'outlet', 'online'])
      .orderBy('miner_id')
      .execute();

  const send = async (kind: CommandKind, target: CommandTarget, params: Record<string, unknown> = {}) => {
    const command = await t.app.commands.issue({
      areaId,
      fboxId: fbox.id,
      kind,
      target,
      params,
      userId: null,
    });
    await waitFor(async () => (await t.app.commands.get([command.id], [areaId]))[0]!.status !== 'sent');
    return (await t.app.commands.get([command.id], [areaId]))[0]!;
  };

  const settle = async (check: () => Promise<boolean>) =>
    waitFor(async () => {
      await t.app.ingest.flush();
      return check();
    });

  beforeAll(async () => {
    t = await buildTestApp({ mqtt: 'embedded', config: { commandTimeoutMs: 5000 } });
    areaId = (await createArea(t.app, (await createMaster(t.app)).id)).id;
    fbox = await createFbox(t.app, areaId, { tanks: 2 });
    simulator = await startSimulator({
      brokerUrl: brokerUrl(t.app),
      // Telemetry is stamped by the app's clock: ingest refuses times far from its own.
      clock: t.clock,
      intervalMs: 60_000,
      reportAfterCommandMs: 100,
      restartMs: 60_000,
      gateways: [
        {
          deviceId: fbox.device_id,
          username: fbox.mqtt_username,
          password: fbox.mqtt_password,
          tanks: 2,
          minersPerTank: 3,
        },
      ],
    });
    await settle(async () => (await miners()).length === 6);
  });

  afterAll(async () => {
    await simulator?.stop();
    await t?.close();
  });

  it('acknowledges every command kind and reports its effect', async () => {
    const [first, second, third] = await miners();
    expect(first && second && third).toBeTruthy();
    if (!first || !second || !third) return;

    expect((await send('miner.mode', { sn: first.sn }, { mode: 'low' })).status).toBe('acknowledged');
    await settle(async () => (await miners())[0]!.mode === 'low');

    const pool = 'stratum+tcp://pool.example.com:3333';
    expect(
      (await send('miner.pool', { sn: first.sn }, { pool_address: pool, worker: 'acct.1' })).status,
    ).toBe('acknowledged');
    await settle(async () => (await miners())[0]!.pool_address === pool);

    expect((await send('miner.resave_account', { sn: first.sn })).status).toBe('acknowledged');
    expect(
      (await send('miner.overclock', { sn: second.sn }, { enabled: true, min: 500, max: 600 })).status,
    ).toBe('acknowledged');

    expect((await send('miner.restart', { sn: second.sn })).status).toBe('acknowledged');
    await settle(async () => (await miners())[1]!.online === 0);

    expect(third.outlet).not.toBeNull();
    expect((await send('pdu.outlet', { outlet: third.outlet! }, { status: 'off' })).status).toBe(
      'acknowledged',
    );
    await settle(async () => (await miners())[2]!.online === 0);

    expect((await send('tank.controller_switch', { tank_no: 1 }, { control_mode: 'manual' })).status).toBe(
      'acknowledged',
    );
    await settle(async () => {
      const tank = await t.app.db
        .selectFrom('tank_state')
        .innerJoin('tanks', 'tanks.id', 'tank_state.tank_id')
        .select('tank_state.control_mode')
        .where('tanks.fbox_id', '=', fbox.id)
        .where('tanks.no', '=', 1)
        .executeTakeFirst();
      return tank?.control_mode === 'manual';
    });
    expect((await send('tank.oil_setting', { tank_no: 1 }, { energy_saving: true })).status).toBe(
      'acknowledged',
    );
    expect((await send('meter.reset', { meter_no: 1 })).status).toBe('acknowledged');
    expect((await send('fbox.config', {}, { interval_s: 30 })).status).toBe('acknowledged');
  });

  it('records the gateway refusing a command, with its reason', async () => {
    const refused = await send('miner.restart', { sn: 'NO-SUCH-SN' });
    expect(refused.status).toBe('failed');
    expect(refused.error).toMatch(/\S/);
  });

  it('times out a command the gateway never answers', async () => {
    const gateway = simulator.gateway(fbox.device_id);
    expect(gateway).toBeDefined();
    if (!gateway) return;
    gateway.ignoreCommands = true;
    try {
      const [miner] = await miners();
      const command = await t.app.commands.issue({
        areaId,
        fboxId: fbox.id,
        kind: 'miner.restart',
        target: { sn: miner!.sn },
        params: {},
        userId: null,
      });
      await waitFor(async () => (await t.app.commands.get([command.id], [areaId]))[0]!.status === 'sent');
      t.clock.advance(5001);
      await t.app.commands.expire();
      expect((await t.app.commands.get([command.id], [areaId]))[0]!.status).toBe('timed_out');
    } finally {
      gateway.ignoreCommands = false;
    }
  });
});
