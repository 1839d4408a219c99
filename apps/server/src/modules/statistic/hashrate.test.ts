import { Code } from '@fbox/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createFbox, createMiners, prng, type TestFbox } from '../../test/device-factories.js';
import {
  createArea,
  createMaster,
  createSubAccount,
  get,
  login,
  type TestUser,
} from '../../test/factories.js';
import { rollupHashrate } from './hashrate-rollup.js';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

interface Sample {
  miner: number;
  ts: number;
  hashrate: number;
  online: number;
}
interface MinerInfo {
  id: number;
  fbox: number;
  model: string;
  theo: number;
  iv: number;
  groups: number[];
}
type Sums = {
  miners: number;
  online: number;
  cover: number;
  reach: number;
  hash: number;
  hr: number;
  theo: number;
};
const zero = (): Sums => ({ miners: 0, online: 0, cover: 0, reach: 0, hash: 0, hr: 0, theo: 0 });

/**
 * Brute force from the definitions (docs/statistics.md): for every miner and hour, the online
 * reports each stand for the box's interval (at most the hour's time), the hour's time runs from
 * the miner's creation until the last rollup; a span's figures are sums over its miner-hours.
 */
const oracle = (samples: Sample[], miners: MinerInfo[], created: number, rolledTo: number) => {
  const cells = new Map<string, Sums & { hourTs: number; miner: MinerInfo }>();
  const byMinerHour = new Map<string, Sample[]>();
  for (const s of samples) {
    if (s.ts >= rolledTo) continue;
    const key = `${s.miner}|${s.ts - (s.ts % hour)}`;
    const list = byMinerHour.get(key) ?? [];
    list.push(s);
    byMinerHour.set(key, list);
  }
  for (const m of miners)
    for (let h = created - (created % hour); h < rolledTo; h += hour) {
      const end = Math.min(h + hour, rolledTo);
      const cover = (end - Math.max(h, created)) / 1000;
      const list = byMinerHour.get(`${m.id}|${h}`) ?? [];
      const online = list.filter((s) => s.online === 1);
      const valid = online.filter((s) => s.hashrate >= 0);
      const avg = valid.length ? valid.reduce((a, s) => a + s.hashrate, 0) / valid.length : 0;
      const reach = Math.min(cover, online.length * m.iv);
      const hash = Math.min(cover, online.filter((s) => s.hashrate > 0).length * m.iv);
      cells.set(`${m.id}|${h}`, {
        hourTs: h,
        miner: m,
        miners: 1,
        online: online.length > 0 ? 1 : 0,
        cover,
        reach,
        hash,
        hr: avg * reach,
        theo: m.theo * cover,
      });
    }
  /** Sums of the miners `pick` keeps, over hours in [a, b); plus the rolled-up wall seconds. */
  const span = (a: number, b: number, pick: (m: MinerInfo) => boolean) => {
    const s = zero();
    for (const c of cells.values()) {
      if (c.hourTs < a || c.hourTs >= b || !pick(c.miner)) continue;
      s.miners += c.miners;
      s.online += c.online;
      s.cover += c.cover;
      s.reach += c.reach;
      s.hash += c.hash;
      s.hr += c.hr;
      s.theo += c.theo;
    }
    return s;
  };
  const wall = (a: number, b: number) => {
    let w = 0;
    for (let h = created - (created % hour); h < rolledTo; h += hour)
      if (h >= a && h < b) w += (Math.min(h + hour, rolledTo) - h) / 1000;
    return w;
  };
  return { span, wall, cells };
};

const stat = (s: Sums, wall: number) => ({
  hashrate: s.hr / wall,
  theoretical: s.theo / wall,
  ratio: s.hr / s.theo,
  online_rate: s.online / s.miners,
  reachable_uptime: s.reach / s.cover,
  hashing_uptime: s.hash / s.cover,
});

const expectStat = (got: Record<string, number | null>, want: Record<string, number>, label: string) => {
  for (const [k, v] of Object.entries(want)) {
    expect(got[k], `${label} ${k}`).not.toBeNull();
    expect(got[k] as number, `${label} ${k}`).toBeCloseTo(v, k === 'hashrate' || k === 'theoretical' ? 2 : 4);
  }
};

describeDb('hashrate overview: rollups and reads against a brute-force oracle', () => {
  let t: TestApp;
  let master: TestUser;
  let token: string;
  let areaId: number;
  let boxes: TestFbox[];
  const miners: MinerInfo[] = [];
  const samples: Sample[] = [];
  let groupA = 0;
  let groupB = 0;
  // 2026-03-02 05:20 UTC: mid-hour, so the first hour is a partial one.
  const created = Date.UTC(2026, 2, 2, 5, 20);
  const end = created + 2 * day + 7 * hour + 13 * minute;
  let rolledTo = 0;
  let o: ReturnType<typeof oracle>;

  const ask = async (path: string, query: Record<string, string | number>, as = token) =>
    (
      await get(
        t.app,
        `/index/fbox.statistic/${path}`,
        Object.fromEntries(Object.entries({ area_id: areaId, ...query }).map(([k, v]) => [k, String(v)])),
        { token: as },
      )
    ).json();

  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.ms = created;
    master = await createMaster(t.app);
    areaId = (await createArea(t.app, master.id)).id;
    boxes = [
      await createFbox(t.app, areaId, { name: 'North' }),
      await createFbox(t.app, areaId, { name: 'South' }),
    ];
    await t.app.db
      .updateTable('fboxes')
      .set({ reporting_interval_s: 300 })
      .where('id', '=', boxes[0]!.id)
      .execute();
    await t.app.db
      .updateTable('fboxes')
      .set({ reporting_interval_s: 600 })
      .where('id', '=', boxes[1]!.id)
      .execute();
    const models = [
      ['S19 Pro', 110],
      ['S21', 200],
      ['M50S', 126],
    ] as const;
    const rand = prng(14);
    for (const [b, box] of boxes.entries()) {
      const seeds = Array.from({ length: 9 }, (_, i) => {
        const [model, theo] = models[(i + b) % models.length]!;
        return { sn: `HR${b}${i}`, model, hashrate_theoretical: i === 4 ? -999 : theo };
      });
      const ids = await createMiners(t.app, box, seeds);
      for (const [i, id] of ids.entries())
        miners.push({
          id,
          fbox: box.id,
          model: seeds[i]!.model,
          theo: Math.max(0, seeds[i]!.hashrate_theoretical),
          iv: b === 0 ? 300 : 600,
          groups: [],
        });
    }
    // Two groups of different task types that overlap; the rest of the miners are in none.
    const group = async (type: string, name: string, members: MinerInfo[]) => {
      const g = await t.app.db
        .insertInto('miner_groups')
        .values({ area_id: areaId, type, name, created_at: created, updated_at: created })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const m of members) {
        await t.app.db.insertInto('miner_group_members').values({ group_id: g.id, miner_id: m.id }).execute();
        m.groups.push(g.id);
      }
      return g.id;
    };
    groupA = await group('miner_reboot', 'Row A', miners.slice(0, 6));
    groupB = await group('temp_mode', 'Hot aisle', miners.slice(4, 10));
    // Reports at each box's interval with jitter, outages, -999 readings and zero hashrate.
    for (const m of miners) {
      const quality = 0.5 + rand.next() / 2;
      for (let ts = created + rand.int(0, m.iv * 1000 - 1); ts < end; ts += m.iv * 1000) {
        const r = rand.next();
        const online = r < 0.12 ? 0 : 1;
        const reading = rand.next();
        const hashrate =
          online === 0
            ? 0
            : reading < 0.05
              ? -999
              : reading < 0.1
                ? 0
                : m.theo * quality * (0.8 + rand.next() / 5);
        if (rand.next() < 0.03) continue; // a lost report
        samples.push({ miner: m.id, ts, hashrate: Math.round(hashrate * 1000) / 1000, online });
      }
    }
    for (let i = 0; i < samples.length; i += 500)
      await t.app.db
        .insertInto('miner_samples')
        .values(
          samples.slice(i, i + 500).map((s) => ({
            miner_id: s.miner,
            ts: s.ts,
            hashrate: s.hashrate,
            power_w: 3000,
            chip_max_temp: 70,
            online: s.online,
          })),
        )
        .execute();
    // The job runs as time passes: every 47 minutes, so hours are rolled up partly, then again.
    for (t.clock.ms = created + minute; t.clock.ms <= end; t.clock.ms += 47 * minute) await t.app.jobs.tick();
    rolledTo = t.clock.ms - 47 * minute;
    rolledTo -= rolledTo % minute;
    o = oracle(samples, miners, created, rolledTo);
    token = await login(t.app, master);
  }, 120_000);
  afterAll(() => t.close());

  it('answers the mine, its days and its FBOXes and models in the reader’s zone as the oracle does', async () => {
    for (const zone of ['UTC+8', 'UTC-5', 'UTC+0']) {
      await t.app.db.updateTable('users').set({ time_zone: zone }).where('id', '=', master.id).execute();
      const offset = Number(zone.slice(3)) * hour;
      const localMidnight = (ts: number) => Math.floor((ts + offset) / day) * day - offset;
      for (const split of ['fbox', 'model'] as const) {
        const answer = await ask('hashrate', { from: created - day, to: end + day, bucket: 'day', split });
        expect(answer.code, JSON.stringify(answer)).toBe(Code.OK);
        const d = answer.data;
        expect(d.time_zone).toBe(zone);
        const from = localMidnight(created - day);
        expect(d.from).toBe(from);
        expectStat(
          d.kpi,
          stat(
            o.span(from, d.to, () => true),
            o.wall(from, d.to),
          ),
          `${zone} kpi`,
        );
        // Every local day with data, at its local midnight.
        const days = [localMidnight(created), localMidnight(created) + day, localMidnight(created) + 2 * day];
        if (localMidnight(rolledTo - 1) > days[2]!) days.push(days[2]! + day);
        expect(d.totals.map((r: { bucket_ts: number }) => r.bucket_ts)).toEqual(days);
        expect(d.rows.length).toBeGreaterThanOrEqual(days.length * 2);
        // By day, then by key.
        const order = d.rows.map((r: { bucket_ts: number; key: string }) => `${r.bucket_ts}|${r.key}`);
        expect(order).toEqual(
          [...d.rows]
            .sort((a, b) => a.bucket_ts - b.bucket_ts || a.key.localeCompare(b.key))
            .map((r: { bucket_ts: number; key: string }) => `${r.bucket_ts}|${r.key}`),
        );
        for (const r of d.totals) {
          const w = o.wall(r.bucket_ts, r.bucket_ts + day);
          expectStat(
            r,
            stat(
              o.span(r.bucket_ts, r.bucket_ts + day, () => true),
              w,
            ),
            `${zone} day ${r.bucket_ts}`,
          );
          // The split's series add up to the mine, per day.
          const parts = d.rows.filter((x: { bucket_ts: number }) => x.bucket_ts === r.bucket_ts);
          const sum = parts.reduce((a: number, x: { hashrate: number }) => a + x.hashrate, 0);
          expect(sum).toBeCloseTo(r.hashrate, 2);
          for (const p of parts) {
            const pick = (m: MinerInfo) => (split === 'fbox' ? String(m.fbox) === p.key : m.model === p.key);
            expectStat(p, stat(o.span(r.bucket_ts, r.bucket_ts + day, pick), w), `${zone} ${split} ${p.key}`);
          }
        }
        const names = d.series.map((s: { name: string }) => s.name).sort();
        expect(names).toEqual(split === 'fbox' ? ['North', 'South'] : ['M50S', 'S19 Pro', 'S21']);
      }
    }
  });

  it('answers hours and groups (a miner in two groups counts in each; “0” holds the rest)', async () => {
    await t.app.db.updateTable('users').set({ time_zone: 'UTC+8' }).where('id', '=', master.id).execute();
    const from = created + 3 * hour + 17 * minute;
    const to = from + 20 * hour;
    const answer = await ask('hashrate', { from, to, bucket: 'hour', split: 'group' });
    expect(answer.code, JSON.stringify(answer)).toBe(Code.OK);
    const d = answer.data;
    expect(d.from).toBe(from - (from % hour));
    expect(d.totals).toHaveLength(21);
    expect(d.totals.map((r: { bucket_ts: number }) => r.bucket_ts)).toEqual(
      Array.from({ length: 21 }, (_, i) => d.from + i * hour),
    );
    const order = d.rows.map((r: { bucket_ts: number; key: string }) => `${r.bucket_ts}|${r.key}`);
    expect(order).toEqual(
      [...d.rows]
        .sort((a, b) => a.bucket_ts - b.bucket_ts || a.key.localeCompare(b.key))
        .map((r: { bucket_ts: number; key: string }) => `${r.bucket_ts}|${r.key}`),
    );
    expect(d.series.map((s: { key: string; name: string }) => [s.key, s.name]).sort()).toEqual(
      [
        ['0', ''],
        [String(groupA), 'Row A'],
        [String(groupB), 'Hot aisle'],
      ].sort(),
    );
    for (const r of d.rows) {
      const w = o.wall(r.bucket_ts, r.bucket_ts + hour);
      const pick = (m: MinerInfo) =>
        r.key === '0' ? m.groups.length === 0 : m.groups.includes(Number(r.key));
      expectStat(
        r,
        stat(o.span(r.bucket_ts, r.bucket_ts + hour, pick), w),
        `hour ${r.bucket_ts} group ${r.key}`,
      );
    }
    for (const s of d.series) {
      const pick = (m: MinerInfo) =>
        s.key === '0' ? m.groups.length === 0 : m.groups.includes(Number(s.key));
      expectStat(s, stat(o.span(d.from, d.to, pick), o.wall(d.from, d.to)), `series ${s.key}`);
    }
  });

  it('lists the miners with the lowest ratio of hashrate to theoretical over the range', async () => {
    const from = created + 5 * hour;
    const to = created + 40 * hour;
    const answer = await ask('hashrate_worst', { from, to, limit: 5 });
    expect(answer.code, JSON.stringify(answer)).toBe(Code.OK);
    const a = from - (from % hour);
    const b = Math.ceil(to / hour) * hour;
    const ranked = miners
      .filter((m) => m.theo > 0)
      .map((m) => {
        const s = o.span(a, b, (x) => x.id === m.id);
        return { id: m.id, ratio: s.hr / s.theo, s };
      })
      .sort((x, y) => x.ratio - y.ratio);
    expect(answer.data.items.map((i: { miner_id: number }) => i.miner_id)).toEqual(
      ranked.slice(0, 5).map((r) => r.id),
    );
    for (const [i, item] of answer.data.items.entries()) {
      const { s } = ranked[i]!;
      expect(item.ratio).toBeCloseTo(s.hr / s.theo, 4);
      expect(item.hashrate).toBeCloseTo(s.hr / s.cover, 2);
      expect(item.reachable_uptime).toBeCloseTo(s.reach / s.cover, 4);
      expect(item.hashing_uptime).toBeCloseTo(s.hash / s.cover, 4);
      expect(item.fbox_name).toMatch(/North|South/);
    }
  });

  it('exports the table the page shows', async () => {
    const query = { from: created, to: created + 2 * day, bucket: 'day', split: 'model' };
    const answer = await ask('hashrate', query);
    const res = await get(
      t.app,
      '/index/fbox.statistic/hashrate_export',
      Object.fromEntries(
        Object.entries({ area_id: areaId, ...query, format: 'csv' }).map(([k, v]) => [k, String(v)]),
      ),
      { token },
    );
    expect(res.statusCode).toBe(200);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe(
      'Time,Series,Hashrate (TH/s),Theoretical (TH/s),Ratio (%),Online rate (%),Reachable uptime (%),Hashing uptime (%)',
    );
    expect(lines).toHaveLength(1 + answer.data.totals.length + answer.data.rows.length);
    const totalLine = lines[1]!.split(',');
    expect(totalLine[1]).toBe('Mine total');
    expect(Number(totalLine[2])).toBeCloseTo(answer.data.totals[0].hashrate, 3);
  });

  it('rolls up the same rows with the miners split over many transactions', async () => {
    const fleet = () =>
      t.app.db.selectFrom('fleet_hashrate_1h').selectAll().orderBy(['dim', 'key', 'hour_ts']).execute();
    const perMiner = () =>
      t.app.db.selectFrom('miner_hashrate_1h').selectAll().orderBy(['miner_id', 'hour_ts']).execute();
    // From scratch (raw samples past retention are gone, so not the job's rows): all in one
    // transaction, then 4 miners per transaction, so chunk edges fall inside each box's miners.
    const fromScratch = async (perTransaction: number) => {
      await t.app.db.deleteFrom('fleet_hashrate_1h').execute();
      await t.app.db.deleteFrom('miner_hashrate_1h').execute();
      await rollupHashrate(t.app.db, rolledTo, 10 * day, perTransaction);
      return { fleet: await fleet(), miners: await perMiner() };
    };
    const whole = await fromScratch(1000);
    expect(whole.miners.filter((m) => m.hash_s > 0).length).toBeGreaterThan(100);
    expect(await fromScratch(4)).toEqual(whole);

    // The mine's sums added up from parts of 7 miners: the same rows, up to the order of additions.
    await t.app.db.deleteFrom('fleet_hashrate_1h').execute();
    await t.app.db.deleteFrom('miner_hashrate_1h').execute();
    await rollupHashrate(t.app.db, rolledTo, 10 * day, 1000, 7);
    const parts = await fleet();
    expect(parts.map(({ area_id, dim, key, hour_ts }) => [area_id, dim, key, hour_ts])).toEqual(
      whole.fleet.map(({ area_id, dim, key, hour_ts }) => [area_id, dim, key, hour_ts]),
    );
    parts.forEach((row, n) => {
      for (const [column, value] of Object.entries(whole.fleet[n]!))
        if (typeof value === 'number') expect(row[column as keyof typeof row]).toBeCloseTo(value, 6);
    });
    // The rows the next tests read, as the job writes them.
    expect(await fromScratch(1000)).toEqual(whole);
    // Four rollups of ten days, one of them in a transaction per 4 miners: 3–15 s on PostgreSQL on a
    // quiet 2-core machine, over the default 20 s while other suites share it.
  }, 60_000);

  it('stores the settled days it answers, and forgets those a rollup rewrites', async () => {
    const storedDays = async () =>
      Number(
        (
          await t.app.db
            .selectFrom('fleet_hashrate_days')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    await t.app.db.deleteFrom('fleet_hashrate_days').execute();
    const query = { from: created, to: end + day, bucket: 'day', split: 'fbox' };
    const before = (await ask('hashrate', query)).data;
    // The whole days that ended 3 hours before the clock: the first two of the three.
    expect(await storedDays()).toBe(2);
    expect((await ask('hashrate', query)).data).toEqual(before);
    // By hour: the one whole UTC day settled keeps its hours' rows and the mine's (2 texts), and
    // answers as its hours do while it is not settled.
    const hours = { from: created, to: end, bucket: 'hour', split: 'model' };
    const byHour = (await ask('hashrate', hours)).data;
    expect(await storedDays()).toBe(4);
    expect(byHour.rows.length).toBeGreaterThan(48);
    const clock = t.clock.ms;
    t.clock.ms = created + day + 20 * hour;
    expect((await ask('hashrate', hours)).data).toEqual(byHour);
    t.clock.ms = clock;
    // Rolled up again from scratch, every hour is rewritten: every stored day is forgotten.
    await t.app.db.deleteFrom('fleet_hashrate_1h').execute();
    await rollupHashrate(t.app.db, rolledTo, 10 * day);
    expect(await storedDays()).toBe(0);
    expect((await ask('hashrate', query)).data).toEqual(before);
    expect((await ask('hashrate', hours)).data).toEqual(byHour);
    // A rollup of ten days from scratch, as above: over 20 s on PostgreSQL beside the end-to-end suite.
  }, 60_000);

  it('refuses bad ranges on the end field, another mine, and a sub-account without the mine', async () => {
    const backwards = await ask('hashrate', { from: created, to: created });
    expect(backwards.code).not.toBe(Code.OK);
    expect(JSON.stringify(backwards)).toContain('to');
    const long = await ask('hashrate', { from: created, to: created + 32 * day, bucket: 'hour' });
    expect(long.code).not.toBe(Code.OK);
    expect(JSON.stringify(long)).toContain('31');
    const other = await createMaster(t.app);
    const otherToken = await login(t.app, other);
    for (const path of ['hashrate', 'hashrate_worst'])
      expect((await ask(path, { from: created, to: end }, otherToken)).code).toBe(Code.NOT_FOUND);
    const elsewhere = (await createArea(t.app, master.id)).id;
    const sub = await createSubAccount(t.app, master, [elsewhere]);
    const subToken = await login(t.app, sub);
    for (const path of ['hashrate', 'hashrate_worst'])
      expect((await ask(path, { from: created, to: end }, subToken)).code).not.toBe(Code.OK);
    const mine = await createSubAccount(t.app, master, [areaId]);
    const mineToken = await login(t.app, mine);
    expect((await ask('hashrate', { from: created, to: end }, mineToken)).code).toBe(Code.OK);
  });
});
