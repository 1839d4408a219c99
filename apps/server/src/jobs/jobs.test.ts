import pino from 'pino';
import { afterEach, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import type { Database } from '../db/database.js';
import { JobRepository } from '../db/job.repository.js';
import { applyRetention, rollupHours, rollupMinutes } from '../devices/history-rollups.js';
import { describeDb, openTestDatabase, TestClock } from '../test/build-test-app.js';
import { createArea, createFbox, createMaster, createMiner } from '../test/factories.js';
import { type Job, JobRunner } from './job-runner.js';

const minute = 60_000;
const hour = 60 * minute;
const floorToMinute = (ms: number) => ms - (ms % minute);

describeDb('jobs', () => {
  let database: Database | undefined;
  /** An app on a fresh database at the clock's time, with a mine and an FBOX. */
  const appWithBox = async (clock: TestClock) => {
    database = await openTestDatabase();
    const app = await buildApp({
      database: { ...database, close: async () => {} },
      logger: false,
      seed: false,
      now: clock.now,
    });
    const area = await createArea(app, (await createMaster(app)).id);
    return { app, area, fbox: await createFbox(app, area.id) };
  };
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  /** A runner with its own jobs on a fresh database (two runners of a test may share it). */
  const runnerOf = async (clock: TestClock, jobs: Job[]) => {
    database ??= await openTestDatabase();
    const app = await buildApp({
      database: { ...database, close: async () => {} },
      logger: false,
      seed: false,
    });
    await app.close();
    return new JobRunner(new JobRepository(database.db), clock.now, jobs, pino({ level: 'silent' }));
  };

  it('runs each job once per period across two processes sharing a database', async () => {
    const clock = new TestClock();
    const runs: string[] = [];
    const job = (owner: string) => [
      { name: 'probe', periodMs: minute, run: async () => void runs.push(owner) },
    ];
    const a = await runnerOf(clock, job('a'));
    const b = await runnerOf(clock, job('b'));
    await Promise.all([a.tick(), b.tick()]);
    expect(runs).toHaveLength(1);
    clock.advance(minute - 1);
    await Promise.all([a.tick(), b.tick()]);
    expect(runs).toHaveLength(1);
    clock.advance(1);
    await Promise.all([b.tick(), a.tick()]);
    expect(runs).toHaveLength(2);
  });

  it('runs lanes side by side: a long job holds neither a job of another lane; jobs of a lane wait', async () => {
    const clock = new TestClock();
    const events: string[] = [];
    let finishLong = () => {};
    const longDone = new Promise<void>((resolve) => {
      finishLong = resolve;
    });
    const runner = await runnerOf(clock, [
      {
        name: 'long',
        periodMs: hour,
        lane: 'maintenance',
        run: async () => {
          events.push('long started');
          await longDone;
          events.push('long done');
        },
      },
      {
        name: 'after-long',
        periodMs: hour,
        lane: 'maintenance',
        run: async () => void events.push('after-long'),
      },
      { name: 'quick', periodMs: 10_000, run: async () => void events.push('quick') },
    ]);
    const first = runner.tick();
    // Both lanes' first jobs under way before the clock moves: a quick run claimed after it would
    // next be due ten seconds later still.
    await expect.poll(() => events).toContain('long started');
    await expect.poll(() => events).toContain('quick');
    // Ten seconds on, the long job still running: the quick one runs again, the lane is left alone.
    // (Its first run may still be recording its end, its lane busy: a tick then starts nothing.)
    clock.advance(10_000);
    await expect.poll(() => runner.tick()).toEqual(['quick']);
    expect(events.filter((e) => e === 'quick')).toHaveLength(2);
    expect(events).not.toContain('after-long');
    finishLong();
    expect((await first).sort()).toEqual(['after-long', 'long', 'quick']);
    expect(events.indexOf('after-long')).toBeGreaterThan(events.indexOf('long done'));
  });

  it('spaces a job with a share of the time out after a long run', async () => {
    const clock = new TestClock();
    let took = 30_000;
    let runs = 0;
    const job: Job = {
      name: 'rollup',
      periodMs: minute,
      maxShare: 0.25,
      run: async () => {
        runs += 1;
        clock.advance(took);
      },
    };
    const runner = await runnerOf(clock, [job]);
    await runner.tick();
    // 30 s of a 25 % share: next due 2 minutes after it started, not 1.
    clock.advance(minute - took);
    await runner.tick();
    expect(runs).toBe(1);
    clock.advance(minute - 1);
    await runner.tick();
    expect(runs).toBe(1);
    clock.advance(1);
    took = 1_000;
    await runner.tick();
    expect(runs).toBe(2);
    // A short run: due a period after it started again.
    clock.advance(minute - took);
    await runner.tick();
    expect(runs).toBe(3);
  });

  it('rolls samples up by minute and hour and prunes by age', async () => {
    const clock = new TestClock(Date.UTC(2025, 0, 1, 12, 0, 30));
    const { app, area, fbox } = await appWithBox(clock);
    const { id: minerId } = await createMiner(app, { id: fbox.id, area_id: area.id });
    const base = Date.UTC(2025, 0, 1, 10, 0, 0);
    const sample = (ts: number, hashrate: number) => ({
      miner_id: minerId,
      ts,
      hashrate,
      power_w: 3000,
      chip_max_temp: 70,
      online: 1,
    });
    await app.db
      .insertInto('miner_samples')
      .values([
        sample(base, 100),
        sample(base + 30_000, 110),
        sample(base + minute, -999),
        sample(base + hour, 90),
        sample(clock.ms - 10_000, 50),
      ])
      .execute();
    await rollupMinutes(app.db, clock.ms, 48 * hour);
    const minutes = await app.db.selectFrom('miner_samples_1m').selectAll().orderBy('bucket_ts').execute();
    // The current, incomplete minute is not rolled up yet.
    expect(
      minutes.map((m) => [m.bucket_ts - base, m.samples, m.hashrate_avg, m.hashrate_min, m.hashrate_max]),
    ).toEqual([
      [0, 2, 105, 100, 110],
      [minute, 1, -999, -999, -999],
      [hour, 1, 90, 90, 90],
    ]);
    await rollupMinutes(app.db, clock.ms, 48 * hour);
    expect(await app.db.selectFrom('miner_samples_1m').selectAll().execute()).toHaveLength(3);
    await rollupHours(app.db, clock.ms, 30 * 24 * hour);
    const hours = await app.db
      .selectFrom('miner_samples_1h')
      .select(['bucket_ts', 'samples', 'hashrate_avg'])
      .orderBy('bucket_ts')
      .execute();
    expect(hours.map((h) => [h.bucket_ts - base, h.samples, h.hashrate_avg])).toEqual([
      [0, 3, 105],
      [hour, 1, 90],
    ]);
    const state = await app.db.selectFrom('miner_state').select('hashrate_24h').executeTakeFirstOrThrow();
    expect(state.hashrate_24h).toBe(97.5);

    const deleted = await applyRetention(app.db, base + hour + 48 * hour, {
      rawHours: 48,
      rollup1mDays: 30,
      rollup1hDays: 400,
    });
    expect(deleted.miner_samples).toBe(3);
    expect(await app.db.selectFrom('miner_samples').select('ts').orderBy('ts').execute()).toEqual([
      { ts: base + hour },
      { ts: clock.ms - 10_000 },
    ]);
    expect(deleted.miner_samples_1m).toBe(0);
    await app.close();
  });

  it('rolls up the same minutes and hours with the miners split over many statements', async () => {
    const clock = new TestClock();
    const { app, area, fbox } = await appWithBox(clock);
    const miners = [];
    for (let i = 0; i < 5; i++) miners.push((await createMiner(app, { id: fbox.id, area_id: area.id })).id);
    const base = floorToMinute(clock.ms) - 10 * minute;
    await app.db
      .insertInto('miner_samples')
      .values(
        miners.flatMap((minerId, i) =>
          [0, 30_000, minute, 7 * minute].map((offset, k) => ({
            miner_id: minerId,
            ts: base + offset,
            hashrate: 100 + 10 * i + k,
            power_w: 3000,
            chip_max_temp: 70,
            online: 1,
          })),
        ),
      )
      .execute();
    const read = () =>
      app.db
        .selectFrom('miner_samples_1m')
        .select(['miner_id', 'bucket_ts', 'samples', 'hashrate_avg', 'hashrate_min', 'hashrate_max'])
        .orderBy('miner_id')
        .orderBy('bucket_ts')
        .execute();
    await rollupMinutes(app.db, clock.ms, 48 * hour);
    const together = await read();
    expect(together).toHaveLength(15);
    expect(together[0]).toEqual({
      miner_id: miners[0],
      bucket_ts: base,
      samples: 2,
      hashrate_avg: 100.5,
      hashrate_min: 100,
      hashrate_max: 101,
    });
    await app.db.deleteFrom('miner_samples_1m').execute();
    await rollupMinutes(app.db, clock.ms, 48 * hour, 2);
    expect(await read()).toEqual(together);

    const readHours = async () => ({
      hours: await app.db
        .selectFrom('miner_samples_1h')
        .select(['miner_id', 'bucket_ts', 'samples', 'hashrate_avg'])
        .orderBy('miner_id')
        .orderBy('bucket_ts')
        .execute(),
      day: await app.db
        .selectFrom('miner_state')
        .select(['miner_id', 'hashrate_24h'])
        .orderBy('miner_id')
        .execute(),
    });
    const later = clock.ms + 2 * hour;
    await rollupHours(app.db, later, 30 * 24 * hour);
    const hoursTogether = await readHours();
    expect(hoursTogether.hours.length).toBeGreaterThanOrEqual(5);
    expect(hoursTogether.day.map((m) => m.hashrate_24h)).toEqual([101.5, 111.5, 121.5, 131.5, 141.5]);
    await app.db.deleteFrom('miner_samples_1h').execute();
    await app.db.updateTable('miner_info').set({ hashrate_24h: 0 }).execute();
    await rollupHours(app.db, later, 30 * 24 * hour, [], 2);
    expect(await readHours()).toEqual(hoursTogether);
    await app.close();
  });
});
