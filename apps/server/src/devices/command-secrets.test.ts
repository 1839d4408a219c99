import { type CommandMessage, topics } from '@fbox/contracts';
import type { MqttClient } from 'mqtt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp, testBrokers } from '../test/build-test-app.js';
import { createArea, createFbox, createMaster, createMiner, get, login, post } from '../test/factories.js';
import { connectGateway, waitFor } from '../test/mqtt-client.js';
import { splitSecrets } from './command.service.js';
import type { CreatedFbox } from './device.service.js';

const secret = 'Pool-S3cret-9f2c';

describeDb('send-only command parameters (DESIGN §9)', () => {
  for (const broker of testBrokers) {
    describe(`${broker} broker`, () => {
      let t: TestApp;
      let token: string;
      let areaId: number;
      let fbox: CreatedFbox;
      let minerId: number;
      let gateway: MqttClient;
      const received: CommandMessage[] = [];
      const logLines: string[] = [];

      beforeEach(async () => {
        logLines.length = 0;
        received.length = 0;
        t = await buildTestApp({
          mqtt: broker,
          // Everything the server would log, at the most verbose level.
          logger: { level: 'trace', stream: { write: (line: string) => logLines.push(line) } },
        });
        const master = await createMaster(t.app);
        token = await login(t.app, master);
        areaId = (await createArea(t.app, master.id)).id;
        fbox = await createFbox(t.app, areaId);
        minerId = (await createMiner(t.app, { id: fbox.id, area_id: areaId }, { sn: 'SN-POOL' })).id;
        gateway = await connectGateway(t.app, fbox);
        gateway.on('message', (_topic, payload) => received.push(JSON.parse(payload.toString())));
        await gateway.subscribeAsync(topics.command(fbox.device_id), { qos: 1 });
      });
      afterEach(async () => {
        await gateway.endAsync();
        await t.close();
      });

      it('sends the pool password to the gateway and keeps it out of the row, the API and the logs', async () => {
        const res = (
          await post(
            t.app,
            '/index/fbox.miner/changpooladdress',
            {
              area_id: areaId,
              ids: [minerId],
              pool_address: 'stratum+tcp://pool.example.com:3333',
              worker: 'acct.w9',
              password: secret,
            },
            { token },
          )
        ).json();
        expect(res.code).toBe(1);
        const commandId: string = res.data.commands[0].command_id;

        await waitFor(() => received.length === 1);
        expect(received[0]).toEqual({
          id: commandId,
          kind: 'miner.pool',
          target: { sn: 'SN-POOL' },
          params: {
            pool_address: 'stratum+tcp://pool.example.com:3333',
            worker: 'acct.w9',
            password: secret,
          },
        });
        await gateway.publishAsync(topics.ack(fbox.device_id), JSON.stringify({ id: commandId, ok: true }), {
          qos: 1,
        });
        await waitFor(
          async () => (await t.app.commands.get([commandId], [areaId]))[0]?.status === 'acknowledged',
        );

        const rows = await t.app.db.selectFrom('commands').selectAll().execute();
        expect(rows).toHaveLength(1);
        expect(JSON.parse(rows[0]!.params)).toEqual({
          pool_address: 'stratum+tcp://pool.example.com:3333',
          worker: 'acct.w9',
        });
        expect(JSON.stringify(rows)).not.toContain(secret);

        const answers = [
          JSON.stringify(res),
          (await get(t.app, '/index/fbox.command/status', { ids: commandId }, { token })).body,
          (
            await get(
              t.app,
              '/index/fbox.command/batch',
              { area_id: String(areaId), batch_id: res.data.batch_id },
              { token },
            )
          ).body,
          (
            await get(
              t.app,
              '/index/fbox.miner/detail',
              { area_id: String(areaId), id: String(minerId) },
              { token },
            )
          ).body,
        ];
        expect(answers[1]).toContain(commandId);
        expect(answers[3]).toContain(commandId);
        for (const answer of answers) expect(answer).not.toContain(secret);
        expect(logLines.length).toBeGreaterThan(0);
        expect(logLines.join('\n')).not.toContain(secret);
      });
    });
  }

  it('moves secret-looking keys of params to the send-only part', () => {
    expect(splitSecrets({ mode: 'high', password: 'a', api_key: 'b' }, { token: 'c' })).toEqual({
      stored: { mode: 'high' },
      secrets: { password: 'a', api_key: 'b', token: 'c' },
    });
    expect(splitSecrets({ worker: 'w', secret: 'x' }, { worker: 'hidden' })).toEqual({
      stored: {},
      secrets: { secret: 'x', worker: 'hidden' },
    });
  });

  it('stores no secret when the command cannot be sent (no broker)', async () => {
    const t = await buildTestApp();
    const areaId = (await createArea(t.app, (await createMaster(t.app)).id)).id;
    const fbox = await createFbox(t.app, areaId);
    const record = await t.app.commands.issue({
      areaId,
      fboxId: fbox.id,
      kind: 'miner.pool',
      target: { sn: 'SN-1' },
      params: { pool_address: 'pool.example.com:3333', worker: 'w', password: secret },
      userId: null,
    });
    expect(record.status).toBe('pending');
    expect(record.params).toEqual({ pool_address: 'pool.example.com:3333', worker: 'w' });
    const rows = await t.app.db.selectFrom('commands').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(secret);
    await t.close();
  });
});
