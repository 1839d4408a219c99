// API latency (DESIGN §10): p95 of miner list pages on a 100,000-miner area, through the real
// server over HTTP (auth, validation, SQL, envelope), against a bare Fastify route answering the
// same bytes in a process of its own, both loaded by one client process with the same concurrency.
// The console's first request (no filter, no sort, 20 rows), then two filtered pages sorted by
// hashrate (status; status + model), 50 rows, pages 1-10. `--sweep` adds every other request the
// page makes (each sort column, each filter, a keyword, one miner's SN, a deep page; see `sweepVariants`).
// Prints one JSON line per database and query: SQLite (a temporary file) always, then PostgreSQL
// when `--pg`, TEST_DATABASE_URL or DATABASE_URL names a server (in a temporary schema, dropped
// after). `--pg-only` skips SQLite. Run after `npm run build`. BENCH_MINERS, BENCH_REQUESTS,
// BENCH_CONCURRENCY, BENCH_WARMUP, BENCH_API_ROUNDS, BENCH_SWEEP_REQUESTS tune it; BENCH_ONLY=keyword,deep
// runs only the requests whose names contain one of those words.

import { buildApp } from '../apps/server/dist/app.js';
import { minerSortFields } from '../packages/contracts/dist/index.js';
import {
  benchPgUrl,
  compareToBare,
  loginToken,
  openBenchDatabase,
  startBareRoute,
} from './lib/http-latency.mjs';
import { seedMinerArea } from './lib/seed-area.mjs';

const minersTotal = Number(process.env.BENCH_MINERS ?? 100_000);
const requests = Number(process.env.BENCH_REQUESTS ?? 1500);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const warmupRequests = Number(process.env.BENCH_WARMUP ?? 1000);
const rounds = Number(process.env.BENCH_API_ROUNDS ?? 5);
const perBox = 500;
const args = process.argv.slice(2);
const pgUrl = benchPgUrl(args);

/**
 * The console's first request (the miner list page opened: no filter, no sort, 20 rows, page 1,
 * as the browser asks it), then filtered, sorted 50-row pages 1–10; the last also filters on a
 * column the first index does not lead with (the planner must pick the index that orders the rows).
 */
const variants = [
  { name: 'console-default', query: '', limit: 20, pages: 1 },
  { name: 'online-by-hashrate', query: 'status=online&sort=-hashrate_realtime', limit: 50, pages: 10 },
  {
    name: 'online-model-by-hashrate',
    query: 'status=online&model=S19%20Pro&sort=-hashrate_realtime',
    limit: 50,
    pages: 10,
  },
];

/**
 * `--sweep`: every other request the miner list page can make, as it makes them (20 rows, page 1):
 * each sort column, each filter alone, a keyword search, a deep page and two filters sorted on a
 * reading; shorter runs each
 * (BENCH_SWEEP_REQUESTS, 200), one JSON line each with its ratio and pass/fail against 3×, then a
 * summary line.
 */
// Every column the list sorts by, but the id (the default request above).
const sortFields = minerSortFields.filter((field) => field !== 'id');
const sweepVariants = (fboxId) =>
  [
    ...sortFields.map((field) => ({ name: `sort-${field}`, query: `sort=${field}` })),
    ...[
      'status=offline',
      'model=S21',
      'brand=Whatsminer',
      'pool=F2Pool',
      'mode=low',
      'fault=fan',
      `fbox_id=${fboxId}`,
      'under_pct=90',
      'pool_hijacked=1',
    ].map((query) => ({ name: `filter-${query.split('=')[0]}`, query })),
    { name: 'keyword', query: 'keyword=x17' },
    // One miner's SN: a single match, so the page cannot stop early (an operator looking one up).
    { name: 'keyword-one-sn', query: 'keyword=BN000100042' },
    { name: 'deep-page-1000', query: 'page=1000' },
    // A filter with a sort on a reading: the hottest online miners, the most powerful of a model.
    { name: 'online-by-chip-avg', query: 'status=online&sort=-chip_avg_temp' },
    { name: 'model-by-power', query: 'model=S21&sort=-power_w' },
  ].map((v) => ({ ...v, limit: 20, pages: 1 }));
const sweepRequests = Number(process.env.BENCH_SWEEP_REQUESTS ?? 200);
/** `BENCH_ONLY=keyword,deep`: only the requests whose names contain one of these (a quick look). */
const only = process.env.BENCH_ONLY?.split(',').filter(Boolean);
const chosen = (variant) => !only || only.some((part) => variant.name.includes(part));

const runOn = async (kind) => {
  const { database, dataDir, cleanup } = await openBenchDatabase(kind, pgUrl, 'fbox-bench-api');
  const databaseUrl = kind === 'postgres' ? pgUrl : undefined;
  const config = { dataDir, databaseUrl, demo: false, adminUser: 'bench', adminPassword: 'bench-password-1' };
  const app = await buildApp({ config, database, seed: true, logger: false });

  // ── Seed: one area, FBOXes of 500 miners with 4 tanks each, latest state per miner ──────────────
  const seedStarted = Date.now();
  const { area } = await seedMinerArea(app, { username: 'bench', minersTotal, perBox });
  const seedMs = Date.now() - seedStarted;

  // ── Servers: the real one and a bare route answering the same bytes ─────────────────────────────
  const apiAddress = await app.listen({ port: 0, host: '127.0.0.1' });
  const token = await loginToken(apiAddress, 'bench', 'bench-password-1');
  const bare = await startBareRoute();

  const sweep = args.includes('--sweep');
  const firstBox = sweep
    ? (
        await app.db
          .selectFrom('fboxes')
          .select('id')
          .where('area_id', '=', area.id)
          .executeTakeFirstOrThrow()
      ).id
    : 0;
  const sweeping = sweep ? sweepVariants(firstBox) : [];
  const results = [];
  for (const variant of [...variants, ...sweeping].filter(chosen)) {
    const inSweep = sweeping.includes(variant);
    const pageUrl = (page) =>
      variant.query.includes('page=')
        ? `${apiAddress}/index/fbox.miner/index?area_id=${area.id}&${variant.query}&limit=${variant.limit}`
        : `${apiAddress}/index/fbox.miner/index?area_id=${area.id}${variant.query ? `&${variant.query}` : ''}&page=${page}&limit=${variant.limit}`;
    const sampleBody = await (await fetch(pageUrl(1), { headers: { logintoken: token } })).text();
    const parsed = JSON.parse(sampleBody);
    if (parsed.code !== 1 || (!inSweep && parsed.data.items.length !== variant.limit))
      throw new Error(`unexpected list answer: ${sampleBody.slice(0, 300)}`);
    await bare.setBody(sampleBody);
    // Steady state: both routes warm until V8 has optimised their code (with 200 requests the
    // first variant still paid about a third of its CPU to warm-up, which the bare route does not).
    const figures = await compareToBare({
      urls: Array.from({ length: variant.pages }, (_, i) => pageUrl(i + 1)),
      headers: { logintoken: token },
      bare,
      requests: inSweep ? sweepRequests : requests,
      rounds: inSweep ? 1 : rounds,
      concurrency,
      warmup: inSweep ? Math.min(warmupRequests, 100) : warmupRequests,
    });
    results.push({ name: variant.name, ratio: figures.ratio_p95 });
    console.log(
      JSON.stringify({
        bench: 'api-miner-list',
        variant: variant.name,
        db: app.dbDialect,
        miners: minersTotal,
        query: `${decodeURIComponent(variant.query)}&limit=${variant.limit}&page=${variant.pages === 1 ? 1 : `1..${variant.pages}`}`,
        total_matching: parsed.data.total,
        response_bytes: Buffer.byteLength(sampleBody),
        seed_ms: seedMs,
        ...figures,
        target_ratio: 3,
        pass: figures.ratio_p95 <= 3,
      }),
    );
  }
  if (sweep) {
    const failing = results.filter((r) => r.ratio > 3);
    console.log(
      JSON.stringify({
        bench: 'api-miner-list',
        summary: 'every request the console makes',
        db: app.dbDialect,
        miners: minersTotal,
        requests: results.length,
        passing: results.length - failing.length,
        failing: failing.map((r) => `${r.name} ${r.ratio}x`),
        target_ratio: 3,
      }),
    );
  }

  await bare.close();
  await app.close();
  await cleanup();
};

if (!args.includes('--pg-only')) await runOn('sqlite');
if (pgUrl) await runOn('postgres');
