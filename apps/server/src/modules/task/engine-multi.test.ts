import type { FastifyInstance } from 'fastify';
import { afterEach, expect, it } from 'vitest';
import { appsOnOneDatabase, describeDb } from '../../test/build-test-app.js';
import { createFbox, createMiners } from '../../test/device-factories.js';
import { createArea, createMaster, login } from '../../test/factories.js';
import { api, items, runUntil } from '../../test/task-engine-harness.js';

const s = 1000;
const minute = 60 * s;

/**
 * Two server instances on one database, both running the engine at the same moments (on
 * PostgreSQL over separate pool connections): every action happens exactly once.
 */
describeDb('task engine in two processes on one database', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('each action once, whichever instance claims the task', async () => {
    const world = await appsOnOneDatabase(2);
    close = world.close;
    const { apps, clock } = world;
    const [a, b] = apps as [FastifyInstance, FastifyInstance];
    expect(a.taskEngine.owner).not.toBe(b.taskEngine.owner);
    const master = await createMaster(a);
    const token = await login(a, master);
    const areaId = (await createArea(a, master.id)).id;
    const box = await createFbox(a, areaId);
    const pduMiners = await createMiners(
      a,
      box,
      Array.from({ length: 6 }, (_, i) => ({ sn: `P-${i}`, online: 0, outlet: i + 1 })),
    );
    const rebootMiners = await createMiners(
      a,
      box,
      Array.from({ length: 4 }, (_, i) => ({ sn: `R-${i}`, online: 1, hashrate_realtime: 2 })),
    );
    const group = async (name: string, type: string, ids: number[]) => {
      const g = await api(a, token, 'minerGroup/add', { area_id: areaId, name, type });
      await api(a, token, 'minerGroup/addMiner', { area_id: areaId, group_id: g.id, miner_ids: ids });
      return g.id as number;
    };
    const common = {
      area_id: areaId,
      hashrate_threshold: 50,
      duration_seconds: 30,
      reboot_interval_seconds: 60,
      start_at: clock.ms,
      end_at: clock.ms + 60 * minute,
    };
    const pdu = await api(a, token, 'taskReboot/add', {
      ...common,
      kind: 'pdu',
      name: 'PDU',
      reboot_limit: 1,
      simultaneous_count: 2,
      batch_interval_seconds: 10,
      power_off_seconds: 15,
      group_ids: [await group('P', 'pdu_reboot', pduMiners)],
    });
    const reboot = await api(a, token, 'taskReboot/add', {
      ...common,
      kind: 'miner',
      name: 'Restart',
      reboot_limit: 3,
      simultaneous_count: 3,
      batch_interval_seconds: 0,
      group_ids: [await group('R', 'miner_reboot', rebootMiners)],
    });

    // Both instances tick at every due time, concurrently.
    const claims = { a: 0, b: 0 };
    const tickA = a.taskEngine.tick.bind(a.taskEngine);
    const tickB = b.taskEngine.tick.bind(b.taskEngine);
    a.taskEngine.tick = async () => {
      const n = await tickA();
      claims.a += n;
      return n;
    };
    b.taskEngine.tick = async () => {
      const n = await tickB();
      claims.b += n;
      return n;
    };
    await runUntil([a, b], clock, clock.ms + 30 * minute);

    const pduItems = await items(a, pdu.id);
    const key = (i: { miner_id: number; action: string }) => `${i.miner_id}:${i.action}`;
    expect(pduItems).toHaveLength(12);
    expect(new Set(pduItems.map(key)).size).toBe(12);
    for (const id of pduMiners) {
      expect(pduItems.filter((i) => i.miner_id === id).map((i) => i.action)).toEqual([
        'power_off',
        'power_on',
      ]);
    }
    const rebootItems = await items(a, reboot.id);
    expect(rebootItems).toHaveLength(12);
    for (const id of rebootMiners) {
      const times = rebootItems.filter((i) => i.miner_id === id).map((i) => i.created_at);
      expect(times).toHaveLength(3);
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(60 * s);
    }
    // One command per item, no more.
    const commands = await a.db.selectFrom('commands').select('id').execute();
    expect(commands).toHaveLength(24);
    expect(new Set([...pduItems, ...rebootItems].map((i) => i.command_id))).toEqual(
      new Set(commands.map((c) => c.id)),
    );
    // Both instances did evaluate tasks.
    expect(claims.a).toBeGreaterThan(0);
    expect(claims.b).toBeGreaterThan(0);
  }, 90_000);
});
