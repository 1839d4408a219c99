// Statistics latency (issue 14): p95 of the Power Statistics and Hashrate Overview calls for 30
// days on a 100,000-miner area (200 FBOXes of 500 miners), through the real server over HTTP,
// against a bare Fastify route answering the same bytes, in the same run (bench/lib/http-latency).
// The history the calls read is seeded directly into the tables they read: 30 days of hourly meter
// energy and FBOX rollups per box, and the hashrate rollups. Prints one JSON line per database and
// call: SQLite always, PostgreSQL when `--pg`, TEST_DATABASE_URL or DATABASE_URL names a server.
// `--pg-only` skips SQLite; `--call=<name prefix>` runs only those calls. `first_request_ms` is the first call's time: power statistics then sums
// the range's settled days and load hours from the hourly rows and keeps them (fbox_power_days). Run after `npm run build`. BENCH_MINERS, BENCH_REQUESTS,
// BENCH_CONCURRENCY, BENCH_WARMUP, BENCH_API_ROUNDS and BENCH_RUNS (whole measurements per call; the
// median ratio's run is printed, with each run's ratio and pass/fail against 5×) tune it.
import { sql } from 'kysely';
import { buildApp } from '../apps/server/dist/app.js';
import { bulkInsert } from '../apps/server/dist/db/bulk.js';
import { updateStatistics } from '../apps/server/dist/db/database.js';
import {
  benchPgUrl,
  compareToBare,
  loginToken,
  openBenchDatabase,
  startBareRoute,
} from './lib/http-latency.mjs';
import { seedMinerArea } from './lib/seed-area.mjs';

const minersTotal = Number(process.env.BENCH_MINERS ?? 100_000);
const requests = Number(process.env.BENCH_REQUESTS ?? 300);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 4);
const warmupRequests = Number(process.env.BENCH_WARMUP ?? 100);
const rounds = Number(process.env.BENCH_API_ROUNDS ?? 5);
/** Whole measurements per call: the ratio of one moved by up to ±1.5 on a 2-core machine; the median is judged. */
const runs = Number(process.env.BENCH_RUNS ?? 3);
const perBox = 500;
const days = 30;
const hourMs = 3_600_000;
const args = process.argv.slice(2);
const pgUrl = benchPgUrl(args);

/** 30 days of hourly rows per box: both meters' energy, and the box's power and hashrate rollup. */
const seedPowerHistory = async (app, boxes, from) => {
  const hours = days * 24;
  for (const box of boxes) {
    const energy = [];
    const rollups = [];
    let register = 1000;
    let total = 0;
    for (let h = 0; h < hours; h++) {
      const ts = from + h * hourMs;
      const kwh = 900 + ((h * 37 + box.id * 11) % 200);
      total += kwh / 2;
      // Each meter's row ends with its running totals (energy, resets, readings) to the hour's end.
      for (const no of [1, 2]) {
        energy.push([
          box.id,
          no,
          ts,
          kwh / 2,
          0,
          120,
          ts,
          register,
          ts + hourMs - 30_000,
          register + kwh / 2,
          1,
          total,
          0,
          120 * (h + 1),
        ]);
      }
      register += kwh / 2;
      const hashrate = 60_000 + ((h * 13 + box.id) % 5000);
      rollups.push([
        box.id,
        ts,
        120,
        kwh,
        kwh * 0.95,
        kwh * 1.05,
        30,
        25,
        35,
        50,
        45,
        55,
        hashrate,
        hashrate * 0.98,
        hashrate * 1.02,
      ]);
    }
    await bulkInsert(
      app.db,
      app.dbDialect,
      'meter_energy_hourly',
      [
        'fbox_id',
        'no',
        'hour_ts',
        'energy_kwh',
        'resets',
        'readings',
        'first_ts',
        'first_reading',
        'last_ts',
        'last_reading',
        'sensor_ratio',
        'cum_energy_kwh',
        'cum_resets',
        'cum_readings',
      ],
      energy,
    );
    await bulkInsert(
      app.db,
      app.dbDialect,
      'fbox_samples_1h',
      [
        'fbox_id',
        'bucket_ts',
        'samples',
        'power_kw_avg',
        'power_kw_min',
        'power_kw_max',
        'temperature_avg',
        'temperature_min',
        'temperature_max',
        'humidity_avg',
        'humidity_min',
        'humidity_max',
        'hashrate_total_avg',
        'hashrate_total_min',
        'hashrate_total_max',
      ],
      rollups,
    );
  }
};

/**
 * 30 days of the hashrate overview's hourly rows (modules/statistic: per split and key, with
 * running totals) for the whole mine, each box and each model: what the rollup job writes.
 */
const seedHashrateHistory = async (app, area, boxes, from) => {
  const hours = days * 24;
  const models = ['S19 Pro', 'S21', 'M50S', 'A1366'];
  const series = [
    { dim: 'all', key: '', miners: minersTotal },
    ...boxes.map((b) => ({ dim: 'fbox', key: String(b.id), miners: perBox })),
    ...models.map((m) => ({ dim: 'model', key: m, miners: minersTotal / models.length })),
  ];
  const sums = ['wall_s', 'miners', 'online_miners', 'cover_s', 'reach_s', 'hash_s', 'hashrate_s', 'theo_s'];
  const columns = ['area_id', 'dim', 'key', 'hour_ts', ...sums, ...sums.map((c) => `cum_${c}`)];
  for (const { dim, key, miners } of series) {
    const rows = [];
    const cum = sums.map(() => 0);
    for (let h = 0; h < hours; h++) {
      const online = Math.round(miners * (0.93 + (h % 7) / 100));
      const values = [
        3600,
        miners,
        online,
        miners * 3600,
        online * 3600,
        online * 3500,
        online * 3500 * 130,
        miners * 3600 * 140,
      ];
      values.forEach((v, i) => {
        cum[i] += v;
      });
      rows.push([area.id, dim, key, from + h * hourMs, ...values, ...cum]);
    }
    await bulkInsert(app.db, app.dbDialect, 'fleet_hashrate_1h', columns, rows);
  }
  await bulkInsert(
    app.db,
    app.dbDialect,
    'fleet_hashrate_keys',
    ['area_id', 'dim', 'key'],
    series.map(({ dim, key }) => [area.id, dim, key]),
  );
};

const runOn = async (kind) => {
  const { database, dataDir, cleanup } = await openBenchDatabase(kind, pgUrl, 'fbox-bench-stat');
  const databaseUrl = kind === 'postgres' ? pgUrl : undefined;
  const config = { dataDir, databaseUrl, demo: false, adminUser: 'bench', adminPassword: 'bench-password-1' };
  const app = await buildApp({ config, database, seed: true, logger: false });

  const seedStarted = Date.now();
  const { area, boxes } = await seedMinerArea(app, { username: 'bench', minersTotal, perBox });
  // The range: the last 30 whole days of the reader's zone (a new user's, UTC+8).
  const zoneMs = 8 * hourMs;
  const to = Math.floor((Date.now() + zoneMs) / 86_400_000) * 86_400_000 - zoneMs;
  const from = to - days * 86_400_000;
  await seedPowerHistory(app, boxes, from);
  await seedHashrateHistory(app, area, boxes, from);
  if (app.dbDialect === 'postgres') {
    await sql`vacuum analyze meter_energy_hourly, fbox_samples_1h, fleet_hashrate_1h, fleet_hashrate_keys`.execute(
      app.db,
    );
    await sql`checkpoint`.execute(app.db);
  } else await updateStatistics(app.db, app.dbDialect);
  const seedMs = Date.now() - seedStarted;

  const apiAddress = await app.listen({ port: 0, host: '127.0.0.1' });
  const token = await loginToken(apiAddress, 'bench', 'bench-password-1');
  const bare = await startBareRoute();
  const calls = [
    {
      name: 'power-statistic-30d-by-day',
      path: '/index/fbox.electricity/statistic',
      query: `area_id=${area.id}&from=${from}&to=${to}&bucket=day`,
      check: (data) => data.rows.length === boxes.length * days,
    },
    {
      name: 'hashrate-overview-30d-by-day-per-fbox',
      path: '/index/fbox.statistic/hashrate',
      query: `area_id=${area.id}&from=${from}&to=${to}&bucket=day&split=fbox`,
      check: (data) => data.series.length === boxes.length && data.totals.length === days,
    },
    {
      name: 'hashrate-overview-30d-by-hour-per-model',
      path: '/index/fbox.statistic/hashrate',
      query: `area_id=${area.id}&from=${from}&to=${to}&bucket=hour&split=model`,
      check: (data) => data.series.length === 4 && data.totals.length === days * 24,
    },
  ];
  const only = args.find((a) => a.startsWith('--call='))?.slice('--call='.length);
  for (const call of calls.filter((c) => only === undefined || c.name.startsWith(only))) {
    const url = `${apiAddress}${call.path}?${call.query}`;
    // The first request: power statistics sums the settled days and load hours it then keeps.
    const firstStarted = performance.now();
    const sampleBody = await (await fetch(url, { headers: { logintoken: token } })).text();
    const firstRequestMs = Math.round(performance.now() - firstStarted);
    const parsed = JSON.parse(sampleBody);
    if (parsed.code !== 1 || !call.check(parsed.data))
      throw new Error(`unexpected ${call.name} answer: ${sampleBody.slice(0, 300)}`);
    await bare.setBody(sampleBody);
    const measured = [];
    for (let run = 0; run < runs; run++)
      measured.push(
        await compareToBare({
          urls: [url],
          headers: { logintoken: token },
          bare,
          requests,
          rounds,
          concurrency,
          warmup: warmupRequests,
        }),
      );
    const ratios = measured.map((m) => m.ratio_p95);
    // The run with the median ratio speaks for the call; every run's ratio is printed beside it.
    const figures = measured[ratios.indexOf([...ratios].sort((a, b) => a - b)[Math.floor(runs / 2)])];
    console.log(
      JSON.stringify({
        bench: 'api-statistics',
        call: call.name,
        db: app.dbDialect,
        miners: minersTotal,
        fboxes: boxes.length,
        days,
        response_bytes: Buffer.byteLength(sampleBody),
        seed_ms: seedMs,
        first_request_ms: firstRequestMs,
        ...figures,
        runs,
        ratio_p95_runs: ratios,
        target_ratio: 5,
        pass: figures.ratio_p95 <= 5,
      }),
    );
  }

  await bare.close();
  await app.close();
  await cleanup();
};

if (!args.includes('--pg-only')) await runOn('sqlite');
if (pgUrl) await runOn('postgres');
