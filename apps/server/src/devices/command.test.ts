import { type CommandMessage, topics } from '@fbox/contracts';
import type { MqttClient } from 'mqtt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MqttTransport } from '../mqtt/transport.js';
import type { LiveEvent } from '../realtime/live-events.js';
import { buildTestApp, describeDb, type TestApp, testBrokers } from '../test/build-test-app.js';
import { createArea, createFbox, createMaster } from '../test/factories.js';
import { connectGateway, waitFor } from '../test/mqtt-client.js';
import { CommandService } from './command.service.js';
import type { CreatedFbox } from './device.service.js';

describeDb('device commands', () => {
  for (const broker of testBrokers) {
    describe(`${broker} broker`, () => {
      let t: TestApp;
      let areaId: number;
      let fbox: CreatedFbox;
      let gateway: MqttClient;
      const received: CommandMessage[] = [];
      const events: LiveEvent[] = [];

      beforeEach(async () => {
        t = await buildTestApp({ mqtt: broker, config: { commandTimeoutMs: 5000 } });
        areaId = (await createArea(t.app, (await createMaster(t.app)).id)).id;
        fbox = await createFbox(t.app, areaId);
        gateway = await connectGateway(t.app, fbox);
        gateway.on('message', (_topic, payload) => received.push(JSON.parse(payload.toString())));
        await gateway.subscribeAsync(topics.command(fbox.device_id), { qos: 1 });
        received.length = 0;
        events.length = 0;
        t.app.live.on('live', (e) => events.push(e));
      });
      afterEach(async () => {
        await gateway.endAsync();
        await t.close();
      });

      const issue = (service = t.app.commands) =>
        service.issue({
          areaId,
          fboxId: fbox.id,
          kind: 'miner.restart',
          target: { sn: 'SN-1' },
          params: {},
          userId: null,
        });
      const ack = (id: string, ok: boolean, error?: string, as = gateway, deviceId = fbox.device_id) =>
        as.publishAsync(topics.ack(deviceId), JSON.stringify({ id, ok, ...(error && { error }) }), {
          qos: 1,
        });
      const status = async (id: string) => (await t.app.commands.get([id], [areaId]))[0]!;

      it('publishes a command and records its acknowledgement', async () => {
        const command = await issue();
        expect(command.status).toBe('sent');
        await waitFor(() => received.length === 1);
        expect(received[0]).toEqual({
          id: command.id,
          kind: 'miner.restart',
          target: { sn: 'SN-1' },
          params: {},
        });
        await ack(command.id, true);
        await waitFor(async () => (await status(command.id)).status === 'acknowledged');
        expect((await status(command.id)).acked_at).toBe(t.clock.ms);
        expect(
          events.filter((e) => e.type === 'command').map((e) => e.type === 'command' && e.status),
        ).toEqual(['sent', 'acknowledged']);
      });

      it('answers a command pending when the broker is slow to take it, and marks it sent later', async () => {
        const transport = t.app.mqtt!;
        let release!: () => void;
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        const slow = new CommandService(
          t.app.db,
          t.app.clock,
          t.app.live,
          t.app.devices,
          t.app.log,
          5000,
          20,
        );
        const publish: MqttTransport['publish'] = (...args) => held.then(() => transport.publish(...args));
        slow.setTransport(Object.assign(Object.create(transport) as MqttTransport, { publish }));
        const command = await issue(slow);
        expect(command.status).toBe('pending');
        expect(received).toEqual([]);
        release();
        await waitFor(() => received.length === 1);
        await waitFor(async () => (await status(command.id)).status === 'sent');
        expect(events.some((e) => e.type === 'command' && e.status === 'sent')).toBe(true);
      });

      it('records a refusal with the gateway’s error', async () => {
        const command = await issue();
        await waitFor(() => received.length === 1);
        await ack(command.id, false, 'miner unreachable');
        await waitFor(async () => (await status(command.id)).status === 'failed');
        expect((await status(command.id)).error).toBe('miner unreachable');
      });

      it('times out a command nobody acknowledges, and ignores a late ack', async () => {
        const command = await issue();
        t.clock.advance(4999);
        await t.app.jobs.tick();
        expect((await status(command.id)).status).toBe('sent');
        // The job runs every 5 s: the command is timed out at its next run after the deadline.
        t.clock.advance(5000);
        await t.app.jobs.tick();
        expect((await status(command.id)).status).toBe('timed_out');
        expect((await status(command.id)).error).toMatch(/no acknowledgement/);
        await ack(command.id, true);
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect((await status(command.id)).status).toBe('timed_out');
      });

      it('ignores an ack from another device', async () => {
        const other = await createFbox(t.app, areaId);
        const intruder = await connectGateway(t.app, other);
        const command = await issue();
        await ack(command.id, true, undefined, intruder, other.device_id);
        await intruder.endAsync();
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect((await status(command.id)).status).toBe('sent');
        expect(await t.app.commands.listForMiner(0, 10)).toEqual([]);
      });
    });
  }

  it('stays pending without a broker and answers not found for a box of another area', async () => {
    const t = await buildTestApp();
    const areaId = (await createArea(t.app, (await createMaster(t.app)).id)).id;
    const fbox = await createFbox(t.app, areaId);
    const [a, b] = await t.app.commands.issueMany([
      {
        areaId,
        fboxId: fbox.id,
        kind: 'pdu.outlet',
        target: { outlet: 3 },
        params: { action: 'cycle' },
        userId: null,
        batchId: 'b1',
      },
      {
        areaId,
        fboxId: fbox.id,
        kind: 'meter.reset',
        target: { meter_no: 1 },
        params: {},
        userId: null,
        batchId: 'b1',
      },
    ]);
    expect([a!.status, b!.status]).toEqual(['pending', 'pending']);
    expect(await t.app.commands.get([a!.id, b!.id], [areaId + 1])).toEqual([]);
    await expect(
      t.app.commands.issue({
        areaId: areaId + 1,
        fboxId: fbox.id,
        kind: 'miner.restart',
        target: {},
        params: {},
        userId: null,
      }),
    ).rejects.toThrow();
    await t.close();
  });
});
