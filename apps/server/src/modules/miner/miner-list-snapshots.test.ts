import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp, testDbKind } from '../../test/build-test-app.js';
import { createFbox, createMiners, createTank } from '../../test/device-factories.js';
import { createArea, createMaster, get, login, post } from '../../test/factories.js';
import { waitFor } from '../../test/mqtt-client.js';
import { MinerService } from './miner.service.js';

/**
 * Sort snapshots (SortSnapshots) through the list API: a service that takes them from one miner
 * on, against one that never does (the order straight from SQL).
 */
describeDb('miner list sorted from snapshots (fbox.miner/index)', () => {
  let t: TestApp;
  let token: string;
  let areaId: number;
  let ids: number[];
  let snapshotted: MinerService;
  let exact: MinerService;
  beforeEach(async () => {
    t = await buildTestApp();
    const master = await createMaster(t.app);
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id)).id;
    const boxes = [
      await createFbox(t.app, areaId, { name: 'B1' }),
      await createFbox(t.app, areaId, { name: 'B2' }),
    ];
    // Tanks of equal names in two boxes, and miners in no tank.
    const tanks = [
      await createTank(t.app, boxes[0]!, 1, { name: 'Tank B' }),
      await createTank(t.app, boxes[0]!, 2, { name: 'Tank A' }),
      await createTank(t.app, boxes[1]!, 1, { name: 'Tank A' }),
    ];
    ids = [];
    for (const [b, box] of boxes.entries())
      ids.push(
        ...(await createMiners(
          t.app,
          box,
          Array.from({ length: 20 }, (_, i) => ({
            sn: `SN${b}-${i}`,
            worker: `w${(i * 7) % 11}`,
            online: i % 3 === 0 ? 0 : 1,
            tank_id: i % 4 === 0 ? null : tanks[(i + b) % 3],
            power_w: 3000 + ((i * 13 + b * 5) % 9) * 10,
            uptime_s: (i * 37) % 17,
            hashrate_realtime: 100 + ((i * 11 + b) % 7) * 5,
            chip_max_temp: 60 + ((i * 5 + b * 3) % 8),
          })),
        )),
      );
    snapshotted = new MinerService(t.app, { snapshotFrom: 1, anchorStep: 6 });
    exact = new MinerService(t.app, { snapshotFrom: Number.POSITIVE_INFINITY });
    t.app.miners = snapshotted;
  });
  afterEach(() => t.close());

  const list = async (query: Record<string, string>, service = snapshotted) => {
    t.app.miners = service;
    const res = await get(t.app, '/index/fbox.miner/index', { area_id: String(areaId), ...query }, { token });
    t.app.miners = snapshotted;
    const data = res.json().data as { items: { id: number; power_w: number }[]; total: number };
    return { ids: data.items.map((m) => m.id), items: data.items, total: data.total };
  };
  const setPower = (id: number, power: number) =>
    t.app.db.updateTable('miner_readings').set({ power_w: power }).where('miner_id', '=', id).execute();

  const sorts = [
    'power_w',
    '-power_w',
    'uptime_s',
    '-hashrate_realtime',
    'chip_max_temp',
    '-tank_name',
    'tank_name',
  ];
  if (testDbKind === 'postgres') sorts.push('worker', '-status');

  it('gives every page of a sort no index serves in the order SQL gives', async () => {
    for (const sort of sorts)
      for (const limit of [7, 20]) {
        // The first request counts the list (a snapshot needs its size); the rest are served from one.
        for (const page of [1, 1, 2, 3, 4]) {
          const query = { sort, page: String(page), limit: String(limit) };
          expect(await list(query), `${sort} page ${page} of ${limit}`).toEqual(await list(query, exact));
        }
      }
  });

  it('takes which miners are on a page from the snapshot until it is stale; their rows and order are read fresh', async () => {
    const query = { sort: '-power_w', page: '1', limit: '5' };
    await list(query);
    const first = await list(query);
    // A miner off the page becomes the most powerful; one on the page the least.
    const risen = ids.find((id) => !first.ids.includes(id))!;
    const [top, ...rest] = first.ids;
    await setPower(risen, 9000);
    await setPower(top!, 1000);
    const cached = await list(query);
    expect(cached.ids).toEqual([...rest, top]);
    expect(cached.items.at(-1)?.power_w).toBe(1000);
    // Stale after 5 s: answered as it was, then computed again for the next request.
    t.clock.advance(5000);
    expect((await list(query)).ids).toEqual([...rest, top]);
    // Computed again in the background: the next requests get it once it is done (a loaded CI
    // machine's PostgreSQL took longer than a fixed 50 ms).
    await waitFor(async () => JSON.stringify(await list(query)) === JSON.stringify(await list(query, exact)));
    expect(await list(query)).toEqual(await list(query, exact));
    expect((await list(query)).ids[0]).toBe(risen);
  });

  it('reads deep pages in id order after an anchor, as SQL pages them, and anchors again when they are stale', async () => {
    // Anchors every 6 rows: pages of 4 begin before, at and after one, with and without a filter.
    for (const filter of [{}, { status: 'online' }, { keyword: 'SN1' }] as Record<string, string>[])
      for (const page of [1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
        for (const sort of [undefined, 'id']) {
          const query = { ...filter, ...(sort && { sort }), page: String(page), limit: '4' };
          expect(await list(query), JSON.stringify(query)).toEqual(await list(query, exact));
        }
    // Miners before the anchor leave the list: the page keeps its anchor until it is 5 s old.
    const query = { status: 'online', page: '4', limit: '4' };
    const before = await list(query);
    const online = (await list({ status: 'online', page: '1', limit: '4' }, exact)).ids;
    await t.app.db
      .updateTable('miner_info')
      .set({ online: 0 })
      .where('miner_id', 'in', online.slice(0, 2))
      .execute();
    expect((await list(query)).ids).toEqual(before.ids);
    t.clock.advance(5000);
    expect(await list(query)).toEqual(await list(query, exact));
    expect((await list(query)).ids).not.toEqual(before.ids);
  });

  it('forgets the order when miners are deleted through the API', async () => {
    const query = { sort: 'power_w', page: '1', limit: '5' };
    await list(query);
    const before = await list(query);
    const res = await post(
      t.app,
      '/index/fbox.miner/deleted',
      { area_id: areaId, ids: [before.ids[0]] },
      { token },
    );
    expect(res.json().code).toBe(1);
    const after = await list(query);
    expect(after).toEqual(await list(query, exact));
    expect(after.ids).toHaveLength(5);
    expect(after.total).toBe(39);
  });

  it('serves filtered pages from snapshots of the filter, without a miner that has left it', async () => {
    await t.app.db
      .updateTable('miner_info')
      .set({ model: 'S21' })
      .where('miner_id', 'in', ids.slice(0, 25))
      .execute();
    const filters: Record<string, string>[] = [
      { status: 'online' },
      { model: 'S21', status: 'offline' },
      { keyword: 'SN1' },
      { fault: 'none' },
    ];
    for (const filter of filters)
      for (const sort of ['-power_w', 'tank_name'])
        for (const page of [1, 1, 2, 3]) {
          const query = { ...filter, sort, page: String(page), limit: '4' };
          expect(await list(query), JSON.stringify(query)).toEqual(await list(query, exact));
        }
    const query = { status: 'online', sort: '-power_w', page: '1', limit: '5' };
    const first = await list(query);
    await t.app.db
      .updateTable('miner_info')
      .set({ online: 0 })
      .where('miner_id', '=', first.ids[0]!)
      .execute();
    expect((await list(query)).ids).toEqual(first.ids.slice(1));
  });
});
