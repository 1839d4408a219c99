import { telemetryClock, topics } from '@fbox/contracts';
import { sql } from 'kysely';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CreatedFbox } from '../devices/device.service.js';
import { buildTestApp, describeDb, type TestApp, testBrokers } from '../test/build-test-app.js';
import { createArea, createFbox, createMaster, get, login, type TestUser } from '../test/factories.js';
import { brokerUrl, connectGateway, telemetry, waitFor } from '../test/mqtt-client.js';

/** Each broker with the write on the server's thread, and the embedded one with the writer thread (as deployed). */
const variants = [
  ...testBrokers.map((broker) => ({ broker, thread: false })),
  { broker: 'embedded' as const, thread: true },
];

describeDb('MQTT ingest', () => {
  for (const { broker, thread } of variants) {
    describe(`${broker} broker${thread ? ', writer thread' : ''}`, () => {
      let t: TestApp;
      let fbox: CreatedFbox;
      let master: TestUser;
      let gateway: MqttClient;
      const retained: string[] = [];

      beforeEach(async () => {
        t = await buildTestApp({ mqtt: broker, config: { ingestWriterThread: thread } });
        master = await createMaster(t.app);
        const area = await createArea(t.app, master.id);
        fbox = await createFbox(t.app, area.id, { tanks: 1, reporting_interval_s: 30 });
        gateway = await connectGateway(t.app, fbox);
      });
      afterEach(async () => {
        // Retained messages outlive the test on a shared Mosquitto: clear what this test set.
        for (const topic of retained.splice(0))
          await gateway.publishAsync(topic, '', { retain: true, qos: 1 });
        await gateway.endAsync();
        await t.close();
      });

      const publish = async (payload: unknown, topic = topics.telemetry(fbox.device_id)) => {
        await gateway.publishAsync(topic, typeof payload === 'string' ? payload : JSON.stringify(payload), {
          qos: 1,
        });
      };
      /**
       * The counters of this test's account: on the shared external broker the app also hears other
       * test files' gateways (counted as unknown devices, under no account).
       */
      const own = () => t.app.ingest.stats(master.id);
      const settle = async (messages: number) => {
        await waitFor(() => own().messages >= messages);
        await t.app.ingest.drain();
      };
      const count = async (table: 'miner_samples' | 'miner_state' | 'tank_samples' | 'fbox_samples') =>
        Number(
          (
            await t.app.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );

      it('writes state and history, creating unknown miners and missing tanks', async () => {
        await publish(telemetry({ seq: 1, ts: t.clock.ms, miners: 3, tanks: 2 }));
        await settle(1);
        const miners = await t.app.db.selectFrom('miner_state').selectAll().orderBy('sn').execute();
        expect(miners.map((m) => [m.sn, m.online, m.hashrate_realtime, m.power_w])).toEqual([
          ['SN-0', 1, 100, 3250],
          ['SN-1', 1, 100, 3250],
          ['SN-2', 1, 100, 3250],
        ]);
        const tanks = await t.app.db.selectFrom('tanks').select(['id', 'no', 'name']).orderBy('no').execute();
        expect(tanks.map((x) => [x.no, x.name])).toEqual([
          [1, 'Tank 1'],
          [2, 'Tank 2'],
        ]);
        expect(miners.map((m) => m.tank_id)).toEqual([tanks[0]!.id, tanks[1]!.id, tanks[0]!.id]);
        const box = await t.app.db
          .selectFrom('fbox_state')
          .selectAll()
          .where('fbox_id', '=', fbox.id)
          .executeTakeFirstOrThrow();
        expect(box).toMatchObject({
          online: 1,
          last_seq: 1,
          temperature: 31.5,
          voltage_b: 401,
          meter1_energy_kwh: 1001,
          hashrate_total: 300,
          miner_online: 3,
          immersion_status: 'on',
        });
        expect(await count('miner_samples')).toBe(3);
        expect(await count('tank_samples')).toBe(2);
        expect(await count('fbox_samples')).toBe(1);
        expect(own()).toMatchObject({
          messages: 1,
          samples: 3,
          rejected: 0,
          duplicates: 0,
          batches: 1,
        });
      });

      it('counts meter energy in the batch, while API writes take their turns beside it', async () => {
        const area = await t.app.db.selectFrom('areas').select('id').executeTakeFirstOrThrow();
        // Telemetry and the API's writes at once: each waits for its turn to write, none fails.
        const sent = Array.from({ length: 5 }, (_, i) =>
          publish(telemetry({ seq: i + 1, ts: t.clock.ms - 5000 + i * 1000, miners: 50 })),
        );
        const created = await Promise.all(Array.from({ length: 5 }, () => createFbox(t.app, area.id)));
        await Promise.all(sent);
        await settle(5);
        expect(created).toHaveLength(5);
        expect(await count('miner_samples')).toBe(250);
        // Meter 1 reads 1001…1005 (the first opens its hour with 0), meter 2 stays at 2000.
        const hours = await t.app.db
          .selectFrom('meter_energy_hourly')
          .select(['no', 'readings', 'energy_kwh'])
          .where('fbox_id', '=', fbox.id)
          .execute();
        const sum = (no: number) =>
          hours
            .filter((h) => h.no === no)
            .reduce((a, h) => ({ readings: a.readings + h.readings, energy: a.energy + h.energy_kwh }), {
              readings: 0,
              energy: 0,
            });
        expect([sum(1), sum(2)]).toEqual([
          { readings: 5, energy: 4 },
          { readings: 5, energy: 0 },
        ]);
      });

      const boxState = () =>
        t.app.db
          .selectFrom('fbox_state')
          .select(['last_seq', 'last_ts', 'meter1_energy_kwh'])
          .where('fbox_id', '=', fbox.id)
          .executeTakeFirstOrThrow();

      it("writes a miner's changed settings, and its readings with every sample", async () => {
        const minerRow = () =>
          t.app.db
            .selectFrom('miner_state')
            .select(['ip', 'worker', 'mode', 'fault', 'online', 'tank_id', 'outlet', 'hashrate_realtime'])
            .where('sn', '=', 'SN-0')
            .executeTakeFirstOrThrow();
        const first = telemetry({ seq: 1, ts: t.clock.ms - 2000, miners: 1, tanks: 2 });
        await publish(first);
        await settle(1);
        const before = await minerRow();
        // The box went offline meanwhile (its miners with it), as the status service marks it.
        await t.app.db.updateTable('miner_info').set({ online: 0 }).execute();

        const changed = telemetry({ seq: 2, ts: t.clock.ms - 1000, miners: 1, tanks: 2 });
        Object.assign(changed.miners[0]!, {
          ip: '10.9.9.9',
          worker: 'acct.moved',
          mode: 'low',
          fault: 'fan',
          tank_no: 2,
          outlet: null,
          hashrate_realtime: 55,
        });
        await publish(changed);
        await settle(2);
        const tank2 = await t.app.db
          .selectFrom('tanks')
          .select('id')
          .where('no', '=', 2)
          .executeTakeFirstOrThrow();
        expect(await minerRow()).toEqual({
          ip: '10.9.9.9',
          worker: 'acct.moved',
          mode: 'low',
          fault: 'fan',
          online: 1,
          tank_id: tank2.id,
          outlet: null,
          hashrate_realtime: 55,
        });
        expect(before.ip).not.toBe('10.9.9.9');

        // Settings as they are, a new reading: the reading is written, the settings stay.
        const same = telemetry({ seq: 3, ts: t.clock.ms, miners: 1, tanks: 2 });
        Object.assign(same.miners[0]!, { ...changed.miners[0]!, hashrate_realtime: 77 });
        await publish(same);
        await settle(3);
        expect(await minerRow()).toMatchObject({ ip: '10.9.9.9', tank_id: tank2.id, hashrate_realtime: 77 });
        if (t.app.dbDialect === 'postgres') {
          // Nor is the row locked: a lock would set its xmax (and write to the WAL).
          const { rows } = await sql<{ xmax: string }>`select xmax::text as xmax from miner_info`.execute(
            t.app.db,
          );
          expect(rows).toEqual([{ xmax: '0' }]);
        }

        // The box goes silent and is marked offline with its miners, then reports the same
        // settings again: its miners are online again (SQLite skips settings it wrote unchanged).
        expect(await t.app.deviceStatus.markOffline(fbox)).toBe(true);
        expect(await minerRow()).toMatchObject({ online: 0 });
        const back = telemetry({ seq: 4, ts: t.clock.ms + 1000, miners: 1, tanks: 2 });
        Object.assign(back.miners[0]!, { ...changed.miners[0]!, hashrate_realtime: 78 });
        await publish(back);
        await settle(4);
        expect(await minerRow()).toMatchObject({ online: 1, ip: '10.9.9.9', hashrate_realtime: 78 });

        if (t.app.dbDialect === 'postgres') {
          // Another process may write the row meanwhile (PostgreSQL): the same settings again are
          // compared with what is stored, not with what this process wrote last.
          await t.app.db.updateTable('miner_info').set({ ip: '10.1.1.1' }).execute();
          const again = telemetry({ seq: 5, ts: t.clock.ms + 2000, miners: 1, tanks: 2 });
          Object.assign(again.miners[0]!, { ...changed.miners[0]!, hashrate_realtime: 79 });
          await publish(again);
          await settle(5);
          expect(await minerRow()).toMatchObject({ ip: '10.9.9.9', hashrate_realtime: 79 });
        }
      });

      it('applies a redelivered message once', async () => {
        const message = telemetry({ seq: 7, ts: t.clock.ms, miners: 2 });
        await publish(message);
        await publish(message);
        await publish(message);
        await settle(3);
        expect(await count('miner_samples')).toBe(2);
        expect(await count('fbox_samples')).toBe(1);
        expect(own()).toMatchObject({ messages: 3, duplicates: 2, samples: 2 });
      });

      it('is not wedged by an absurd seq or a gateway whose counter restarted', async () => {
        // Before: one message with the largest safe seq made every later one a "duplicate".
        await publish(telemetry({ seq: Number.MAX_SAFE_INTEGER, ts: t.clock.ms - 2000, miners: 2 }));
        await publish(telemetry({ seq: 1, ts: t.clock.ms - 1000, miners: 2 }));
        await publish(telemetry({ seq: 2, ts: t.clock.ms, miners: 2 }));
        // The restarted counter's first message again (a redelivery): still applied once.
        await publish(telemetry({ seq: 1, ts: t.clock.ms - 1000, miners: 2 }));
        await settle(4);
        expect(await count('fbox_samples')).toBe(3);
        expect(await count('miner_samples')).toBe(6);
        expect(await boxState()).toEqual({ last_seq: 2, last_ts: t.clock.ms, meter1_energy_kwh: 1002 });
        expect(own()).toMatchObject({ messages: 4, duplicates: 1, samples: 6 });
      });

      it('adds a late, older message to history without turning the state back', async () => {
        await publish(telemetry({ seq: 20, ts: t.clock.ms, miners: 1 }));
        await settle(1);
        await publish(telemetry({ seq: 19, ts: t.clock.ms - 5000, miners: 1 }));
        await settle(2);
        expect(await count('miner_samples')).toBe(2);
        expect(await boxState()).toEqual({ last_seq: 20, last_ts: t.clock.ms, meter1_energy_kwh: 1020 });
      });

      it('refuses and counts timestamps far in the future or the past, storing nothing', async () => {
        await publish(telemetry({ seq: 1, ts: t.clock.ms + telemetryClock.maxAheadMs + 1000, miners: 1 }));
        await publish(telemetry({ seq: 2, ts: t.clock.ms - telemetryClock.maxBehindMs - 1000, miners: 1 }));
        await publish(telemetry({ seq: 3, ts: 9_999_999_999_999, miners: 1 }));
        await settle(3);
        expect(own()).toMatchObject({ messages: 3, rejected: 3, samples: 0 });
        expect(await count('fbox_samples')).toBe(0);
        expect(await count('miner_state')).toBe(0);
        // Within the window (a gateway's clock a little ahead, a backlog a day old) is fine.
        await publish(telemetry({ seq: 4, ts: t.clock.ms + 60_000, miners: 1 }));
        await publish(telemetry({ seq: 5, ts: t.clock.ms - 86_400_000, miners: 1 }));
        await settle(5);
        expect(await count('fbox_samples')).toBe(2);
      });

      it('answers each account the counters of its own devices only', async () => {
        await publish(telemetry({ seq: 1, ts: t.clock.ms, miners: 3 }));
        await publish('{not json');
        await settle(2);
        const other = await createMaster(t.app);
        const answer = async (user: TestUser) =>
          (await get(t.app, '/index/fbox.total/ingest', {}, { token: await login(t.app, user) })).json().data;
        expect(await answer(master)).toMatchObject({
          messages: 2,
          samples: 3,
          rejected: 1,
          duplicates: 0,
        });
        // Before: every master saw the whole server's figures.
        expect(await answer(other)).toMatchObject({ messages: 0, samples: 0, rejected: 0, batches: 0 });
      });

      it('rejects malformed and invalid messages and changes nothing', async () => {
        await publish('{not json');
        await publish({ ...telemetry({ seq: 1, ts: t.clock.ms }), v: 2 });
        const bad = telemetry({ seq: 2, ts: t.clock.ms, miners: 2 });
        (bad.miners[1] as { hashrate_realtime: unknown }).hashrate_realtime = 'fast';
        await publish(bad);
        await settle(3);
        expect(own()).toMatchObject({ messages: 3, rejected: 3, samples: 0 });
        expect(await count('miner_state')).toBe(0);
        const box = await t.app.db
          .selectFrom('fbox_state')
          .select(['online', 'last_seq'])
          .executeTakeFirstOrThrow();
        expect(box).toEqual({ online: 0, last_seq: -1 });
      });

      it('follows the retained status and the last will', async () => {
        const isOnline = async () =>
          (
            await t.app.db
              .selectFrom('fbox_state')
              .select('online')
              .where('fbox_id', '=', fbox.id)
              .executeTakeFirstOrThrow()
          ).online === 1;
        const statusTopic = topics.status(fbox.device_id);
        retained.push(statusTopic);
        // One session per client id, and a gateway's is its device id: this one replaces the other.
        await gateway.endAsync();
        const mortal = await connectGateway(t.app, fbox, {
          will: { topic: statusTopic, payload: Buffer.from('offline'), qos: 1, retain: true },
        });
        await mortal.publishAsync(statusTopic, 'online', { qos: 1, retain: true });
        await waitFor(isOnline);
        // An abrupt end (no DISCONNECT) makes the broker publish the will.
        mortal.stream.destroy();
        await waitFor(async () => !(await isOnline()));
        gateway = await connectGateway(t.app, fbox);
      });

      it('marks a box offline after three silent reporting intervals', async () => {
        await publish(telemetry({ seq: 1, ts: t.clock.ms, miners: 2 }));
        await settle(1);
        t.clock.advance(89_000);
        await t.app.jobs.tick();
        const online = () => t.app.db.selectFrom('fbox_state').select('online').executeTakeFirstOrThrow();
        expect((await online()).online).toBe(1);
        t.clock.advance(11_000);
        await t.app.jobs.tick();
        expect((await online()).online).toBe(0);
        const miners = await t.app.db.selectFrom('miner_state').select('online').execute();
        expect(miners.every((m) => m.online === 0)).toBe(true);
      });

      // Reads `heardAt` from inside a batch: a batch write of this thread.
      it.skipIf(thread)(
        'counts a report waiting to be written as heard: no box goes offline behind our own backlog',
        async () => {
          // Heard when queued, before its batch commits (read here from inside the batch).
          let heardInBatch: number | undefined;
          t.app.ingest.addBatchWrite({
            url: import.meta.url,
            name: '(this test)',
            make: () => async () => {
              heardInBatch = t.app.ingest.heardAt(fbox.id);
            },
          });
          await publish(telemetry({ seq: 1, ts: t.clock.ms, miners: 2 }));
          await settle(1);
          expect(heardInBatch).toBe(t.clock.ms);
          const online = async () =>
            (await t.app.db.selectFrom('fbox_state').select('online').executeTakeFirstOrThrow()).online;
          // 100 s after the last stored report; the next one heard 5 s ago, still in the queue.
          t.clock.advance(100_000);
          const heard = (id: number) => (id === fbox.id ? t.clock.ms - 5_000 : undefined);
          expect(await t.app.deviceStatus.detectSilence(heard)).toBe(0);
          expect(await online()).toBe(1);
          expect(await t.app.deviceStatus.detectSilence()).toBe(1);
          expect(await online()).toBe(0);
        },
      );

      if (broker === 'embedded') {
        it('refuses wrong credentials and confines a gateway to its own topics', async () => {
          await expect(
            connectAsync(brokerUrl(t.app), {
              username: fbox.mqtt_username,
              password: 'wrong',
              reconnectPeriod: 0,
            }),
          ).rejects.toThrow();
          expect(t.app.ingest.stats().rejected).toBe(1);
          const other = await createFbox(
            t.app,
            (await t.app.db.selectFrom('areas').select('id').executeTakeFirstOrThrow()).id,
          );
          // Publishing under another box's id is refused (the broker drops the connection).
          gateway.publish(
            topics.telemetry(other.device_id),
            JSON.stringify(telemetry({ seq: 1, ts: t.clock.ms })),
            { qos: 0 },
          );
          await waitFor(() => t.app.ingest.stats().rejected === 2);
          expect(await count('miner_state')).toBe(0);
          const sub = await connectGateway(t.app, fbox);
          await expect(sub.subscribeAsync(topics.command(other.device_id), { qos: 1 })).rejects.toThrow(
            /Subscribe error/,
          );
          const own = await sub.subscribeAsync(topics.command(fbox.device_id), { qos: 1 });
          expect(own[0]?.qos).toBe(1);
          await sub.endAsync();
        });
      }
    });
  }
});
