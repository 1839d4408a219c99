import { Code, topics } from '@fbox/contracts';
import type { MqttClient } from 'mqtt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createMiners, createFbox as createTestFbox } from '../../test/device-factories.js';
import {
  createArea,
  createFbox,
  createMaster,
  createSubAccount,
  get,
  login,
  post,
  type TestUser,
} from '../../test/factories.js';
import { connectGateway, telemetry, waitFor } from '../../test/mqtt-client.js';

const pool = 'stratum+tcp://btc.viabtc.io:3333';

describeDb('account switches: Auto Overclock and Lock Pool', () => {
  let t: TestApp;
  let master: TestUser;
  let token: string;
  let areaA: number;
  let areaB: number;
  let ownMiners: number[];
  let foreignMiner: number;

  const setInfo = async (body: Record<string, unknown>, as = token) =>
    (await post(t.app, '/index/fbox.user/setuserinfo', body, { token: as })).json();
  const commands = (kind: string) =>
    t.app.db.selectFrom('commands').selectAll().where('kind', '=', kind).orderBy('miner_id').execute();
  const changePool = async (ids: number[], areaId = areaA) =>
    (
      await post(
        t.app,
        '/index/fbox.miner/changpooladdress',
        { area_id: areaId, ids, pool_address: 'pool.example.com:3333', worker: 'acct.new', password: 'x' },
        { token },
      )
    ).json();
  const minerList = async (query: Record<string, string> = {}) =>
    (await get(t.app, '/index/fbox.miner/index', { area_id: String(areaA), ...query }, { token })).json();

  describe('without a broker', () => {
    beforeEach(async () => {
      t = await buildTestApp();
      master = await createMaster(t.app);
      token = await login(t.app, master);
      areaA = (await createArea(t.app, master.id)).id;
      areaB = (await createArea(t.app, master.id)).id;
      const boxA = await createTestFbox(t.app, areaA);
      const boxA2 = await createTestFbox(t.app, areaA);
      const boxB = await createTestFbox(t.app, areaB);
      ownMiners = [
        ...(await createMiners(t.app, boxA, [
          { sn: 'A1', pool_address: pool, worker: 'acct.a1' },
          { sn: 'A2', pool_address: pool, worker: 'acct.a2' },
        ])),
        ...(await createMiners(t.app, boxA2, [{ sn: 'A3', pool_address: pool, worker: 'acct.a3' }])),
        ...(await createMiners(t.app, boxB, [{ sn: 'B1', pool_address: pool, worker: 'acct.b1' }])),
      ];
      const other = await createMaster(t.app);
      const otherBox = await createTestFbox(t.app, (await createArea(t.app, other.id)).id);
      foreignMiner = (await createMiners(t.app, otherBox, [{ sn: 'X1' }]))[0]!;
    });
    afterEach(() => t.close());

    it('sends the overclock policy to every miner of every mine of the master when it changes', async () => {
      expect(await setInfo({ auto_frequency: 'on', min: 10, max: 90 })).toMatchObject({ code: 1 });
      const sent = await commands('miner.overclock');
      expect(sent.map((c) => c.miner_id)).toEqual(ownMiners);
      expect(sent.map((c) => c.miner_id)).not.toContain(foreignMiner);
      expect(new Set(sent.map((c) => c.batch_id)).size).toBe(1);
      expect(sent.map((c) => JSON.parse(c.params))).toEqual(
        Array(4).fill({ status: 'on', min: 10, max: 90 }),
      );
      const policy = (await get(t.app, '/index/fbox.user/overclockpolicy', {}, { token })).json();
      expect(policy).toMatchObject({
        code: 1,
        data: {
          status: 'on',
          min: 10,
          max: 90,
          miners: 4,
          batch_id: sent[0]!.batch_id,
          counts: { pending: 4 },
        },
      });

      // Unrelated changes send nothing; a new range sends again.
      await setInfo({ nickname: 'Bob', auto_frequency: 'on', min: 10, max: 90 });
      expect(await commands('miner.overclock')).toHaveLength(4);
      await setInfo({ auto_frequency: 'off' });
      const after = await commands('miner.overclock');
      expect(after).toHaveLength(8);
      expect(JSON.parse(after.at(-1)!.params)).toMatchObject({ status: 'off' });
    });

    it('lets only the master change the switches; a sub-account is refused and nothing changes', async () => {
      const admin = await createSubAccount(t.app, master, [areaA], { authority: 'administrator' });
      const adminToken = await login(t.app, admin);
      const res = await setInfo({ pool_config_status: 'on', auto_frequency: 'on' }, adminToken);
      expect(res.code).toBe(Code.FORBIDDEN);
      expect(res.msg).toMatch(/main account/);
      expect(await commands('miner.overclock')).toHaveLength(0);
      const stored = await t.app.db
        .selectFrom('users')
        .select(['pool_locked', 'auto_frequency'])
        .where('id', '=', admin.id)
        .executeTakeFirstOrThrow();
      expect(stored).toEqual({ pool_locked: 0, auto_frequency: 0 });
      // Profile fields stay the sub-account's own.
      expect((await setInfo({ nickname: 'Admin' }, adminToken)).code).toBe(1);
    });

    it('refuses pool changes while Lock Pool is on, with a clear message, and sends nothing', async () => {
      expect((await changePool([ownMiners[0]!])).code).toBe(1);
      expect(await commands('miner.pool')).toHaveLength(1);
      await setInfo({ pool_config_status: 'on' });
      const refused = await changePool([ownMiners[0]!, ownMiners[1]!]);
      expect(refused).toMatchObject({ code: Code.FORBIDDEN, msg: expect.stringMatching(/Lock Pool is on/) });
      const zh = (
        await post(
          t.app,
          '/index/fbox.miner/changpooladdress',
          { area_id: areaA, ids: [ownMiners[0]], pool_address: 'pool.example.com:3333', worker: 'w' },
          { token, headers: { lang: 'zh-cn' } },
        )
      ).json();
      expect(zh.msg).toMatch(/矿池已锁定/);
      expect((await changePool([ownMiners[3]!], areaB)).code).toBe(Code.FORBIDDEN);
      expect(await commands('miner.pool')).toHaveLength(1);
      // Other miner actions still run.
      expect(
        (
          await post(
            t.app,
            '/index/fbox.miner/multipleoperate',
            { area_id: areaA, ids: [ownMiners[0]], action: 'restart' },
            { token },
          )
        ).json().code,
      ).toBe(1);
      await setInfo({ pool_config_status: 'off' });
      expect((await changePool([ownMiners[1]!])).code).toBe(1);
    });

    it('records the configured pool on cloud changes and snapshots reported pools when locking', async () => {
      await changePool([ownMiners[0]!]);
      const configured = () =>
        t.app.db.selectFrom('miner_pool_configs').selectAll().orderBy('miner_id').execute();
      expect(await configured()).toMatchObject([
        { miner_id: ownMiners[0], pool_address: 'stratum+tcp://pool.example.com:3333', worker: 'acct.new' },
      ]);
      await setInfo({ pool_config_status: 'on' });
      const rows = await configured();
      expect(rows.map((r) => [r.miner_id, r.pool_address, r.worker])).toEqual([
        [ownMiners[0], pool, 'acct.a1'],
        [ownMiners[1], pool, 'acct.a2'],
        [ownMiners[2], pool, 'acct.a3'],
        [ownMiners[3], pool, 'acct.b1'],
      ]);
      expect(rows.map((r) => r.miner_id)).not.toContain(foreignMiner);
    });

    it('flags and filters miners reporting another pool or worker while locked', async () => {
      await setInfo({ pool_config_status: 'on' });
      await t.app.db
        .updateTable('miner_info')
        .set({ pool_address: 'stratum+tcp://evil.example.com:3333' })
        .where('miner_id', '=', ownMiners[0]!)
        .execute();
      await t.app.db
        .updateTable('miner_info')
        .set({ worker: 'thief.1' })
        .where('miner_id', '=', ownMiners[2]!)
        .execute();
      const list = await minerList();
      const flags = Object.fromEntries(
        list.data.items.map((m: { id: number; pool_hijacked: boolean }) => [m.id, m.pool_hijacked]),
      );
      expect(flags).toEqual({ [ownMiners[0]!]: true, [ownMiners[1]!]: false, [ownMiners[2]!]: true });
      const filtered = await minerList({ pool_hijacked: '1' });
      expect(filtered.data.total).toBe(2);
      expect(filtered.data.items.map((m: { id: number }) => m.id).sort()).toEqual(
        [ownMiners[0], ownMiners[2]].sort(),
      );
      const detail = (
        await get(
          t.app,
          '/index/fbox.miner/detail',
          { area_id: String(areaA), id: String(ownMiners[0]) },
          { token },
        )
      ).json();
      expect(detail.data.pool_hijacked).toBe(true);
      // Unlocked: nothing is flagged.
      await setInfo({ pool_config_status: 'off' });
      expect((await minerList({ pool_hijacked: '1' })).data.total).toBe(0);
      expect((await minerList()).data.items.every((m: { pool_hijacked: boolean }) => !m.pool_hijacked)).toBe(
        true,
      );
    });
  });

  describe('with a gateway reporting over MQTT', () => {
    let gateway: MqttClient;
    let fbox: Awaited<ReturnType<typeof createFbox>>;
    beforeEach(async () => {
      t = await buildTestApp({ mqtt: 'embedded' });
      master = await createMaster(t.app);
      token = await login(t.app, master);
      areaA = (await createArea(t.app, master.id)).id;
      fbox = await createFbox(t.app, areaA, { tanks: 0, kind: 'air' });
      gateway = await connectGateway(t.app, fbox);
    });
    afterEach(async () => {
      await gateway.endAsync();
      await t.close();
    });

    const report = async (seq: number, message = telemetry({ seq, ts: t.clock.ms, miners: 3 })) => {
      await gateway.publishAsync(topics.telemetry(fbox.device_id), JSON.stringify(message), { qos: 1 });
      await waitFor(() => t.app.ingest.stats().messages >= seq);
      await t.app.ingest.drain();
    };

    it('flags a miner once its gateway reports a pool other than the configured one', async () => {
      await report(1);
      await setInfo({ pool_config_status: 'on' });
      expect((await minerList({ pool_hijacked: '1' })).data.total).toBe(0);
      const hijacked = telemetry({ seq: 2, ts: t.clock.ms + 30_000, miners: 3 });
      hijacked.miners[1]!.pool_address = 'stratum+tcp://evil.example.com:3333';
      await report(2, hijacked);
      const list = await minerList({ pool_hijacked: '1' });
      expect(
        list.data.items.map((m: { sn: string; pool_hijacked: boolean }) => [m.sn, m.pool_hijacked]),
      ).toEqual([['SN-1', true]]);
      // Back on the configured pool: no longer flagged.
      await report(3, telemetry({ seq: 3, ts: t.clock.ms + 60_000, miners: 3 }));
      expect((await minerList({ pool_hijacked: '1' })).data.total).toBe(0);
    });
  });
});
