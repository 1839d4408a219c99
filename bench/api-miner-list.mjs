// API latency (DESIGN §10): p95 of a filtered, sorted 50-row miner list page on a 100,000-miner
// area, through the real server over HTTP (auth, validation, SQL, envelope), against a bare Fastify
// route answering the same bytes, measured in the same run with the same client and concurrency.
// Two queries: one filter (status) and two filters (status + model), both sorted by hashrate.
// Prints one JSON line per database and query: SQLite (a temporary file) always, then PostgreSQL
// when `--pg`, TEST_DATABASE_URL or DATABASE_URL names a server (in a temporary schema, dropped
// after). `--pg-only` skips SQLite. Run after `npm run build`. BENCH_MINERS, BENCH_REQUESTS,
// BENCH_CONCURRENCY, BENCH_WARMUP, BENCH_API_ROUNDS tune it.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../apps/server/dist/app.js';
import { openPostgres, openSqlite, updateStatistics } from '../apps/server/dist/db/database.js';

const minersTotal = Number(process.env.BENCH_MINERS ?? 100_000);
const requests = Number(process.env.BENCH_REQUESTS ?? 1500);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const warmupRequests = Number(process.env.BENCH_WARMUP ?? 1000);
const rounds = Number(process.env.BENCH_API_ROUNDS ?? 5);
const perBox = 500;
const args = process.argv.slice(2);
const pgUrl =
  process.env.DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  (args.includes('--pg') || args.includes('--pg-only')
    ? 'postgres://postgres@127.0.0.1:5432/test'
    : undefined);

/** Filtered, sorted 50-row pages; the second also filters on a column the first index does not
 * lead with (the planner must pick the index that orders the rows). */
const variants = [
  { name: 'online-by-hashrate', query: 'status=online&sort=-hashrate_realtime' },
  { name: 'online-model-by-hashrate', query: 'status=online&model=S19%20Pro&sort=-hashrate_realtime' },
];

/** A fresh database of the kind: a temporary SQLite file, or a new PostgreSQL schema. */
const openBenchDatabase = async (kind) => {
  if (kind === 'sqlite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'fbox-bench-api-'));
    const database = openSqlite(join(dataDir, 'fbox.db'));
    return {
      database,
      dataDir,
      cleanup: () => {
        if (process.env.BENCH_KEEP) console.error(`kept ${dataDir}`);
        else rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const database = openPostgres(pgUrl, { options: `-c search_path=${schema}` });
  const dataDir = mkdtempSync(join(tmpdir(), 'fbox-bench-api-'));
  return {
    database,
    dataDir,
    cleanup: async () => {
      rmSync(dataDir, { recursive: true, force: true });
      if (process.env.BENCH_KEEP) return console.error(`kept schema ${schema}`);
      const dropper = new pg.Client({ connectionString: pgUrl });
      await dropper.connect();
      await dropper.query(`drop schema if exists ${schema} cascade`);
      await dropper.end();
    },
  };
};

const runOn = async (kind) => {
  const { database, dataDir, cleanup } = await openBenchDatabase(kind);
  const databaseUrl = kind === 'postgres' ? pgUrl : undefined;
  const config = { dataDir, databaseUrl, demo: false, adminUser: 'bench', adminPassword: 'bench-password-1' };
  const app = await buildApp({ config, database, seed: true, logger: false });

  // ── Seed: one area, FBOXes of 500 miners with 4 tanks each, latest state per miner ──────────────
  const seedStarted = Date.now();
  const owner = await app.db
    .selectFrom('users')
    .select('id')
    .where('username', '=', 'bench')
    .executeTakeFirstOrThrow();
  const area = await app.areas.create(owner.id, { area_name: `Bench ${Date.now()}` });
  const models = [
    ['S19 Pro', 'Antminer', 110, 3250],
    ['S21', 'Antminer', 200, 3500],
    ['M50S', 'Whatsminer', 126, 3276],
    ['A1366', 'Avalon', 130, 3250],
  ];
  const pools = ['ViaBTC', 'F2Pool', 'AntPool', 'Foundry'];
  const faults = ['', '', '', '', '', '', 'fan', 'chain', 'temp_high'];
  const now = Date.now();
  let rand = 42;
  const random = () => {
    rand = (rand * 1_103_515_245 + 12_345) % 2_147_483_648;
    return rand / 2_147_483_648;
  };
  const insertChunks = async (table, rows, size) => {
    for (let i = 0; i < rows.length; i += size)
      await app.db
        .insertInto(table)
        .values(rows.slice(i, i + size))
        .execute();
  };
  for (let box = 1, made = 0; made < minersTotal; box++) {
    const count = Math.min(perBox, minersTotal - made);
    const fbox = await app.devices.createFbox(area.id, { name: `Bench ${box}`, kind: 'immersion', tanks: 4 });
    const tanks = await app.db
      .selectFrom('tanks')
      .select('id')
      .where('fbox_id', '=', fbox.id)
      .orderBy('no')
      .execute();
    const identities = Array.from({ length: count }, (_, i) => ({
      area_id: area.id,
      fbox_id: fbox.id,
      tank_id: tanks[i % 4].id,
      sn: `BN${String(box).padStart(4, '0')}${String(i).padStart(5, '0')}`,
      created_at: now,
    }));
    await insertChunks('miners', identities, 1000);
    const miners = await app.db
      .selectFrom('miners')
      .select(['id', 'sn', 'tank_id'])
      .where('fbox_id', '=', fbox.id)
      .execute();
    const states = miners.map((m, i) => {
      const [model, brand, theoretical, power] = models[Math.floor(random() * models.length)];
      const online = random() < 0.93 ? 1 : 0;
      return {
        miner_id: m.id,
        area_id: area.id,
        fbox_id: fbox.id,
        tank_id: m.tank_id,
        sn: m.sn,
        worker: `mine.${box}x${i}`,
        model,
        brand,
        pool: pools[Math.floor(random() * pools.length)],
        pool_address: 'stratum+tcp://btc.viabtc.io:3333',
        ip: `10.${box % 256}.${i >> 8}.${i & 255}`,
        firmware: '2024.1',
        outlet: i + 1,
        online,
        mode: random() < 0.8 ? 'high' : 'low',
        fault: online ? faults[Math.floor(random() * faults.length)] : '',
        chip_avg_temp: online ? 55 + Math.round(random() * 150) / 10 : -999,
        chip_max_temp: online ? 65 + Math.round(random() * 200) / 10 : -999,
        hashrate_theoretical: theoretical,
        hashrate_realtime: online ? Math.round(theoretical * (0.85 + random() * 0.2) * 100) / 100 : 0,
        hashrate_avg: online ? theoretical * 0.97 : 0,
        hashrate_24h: theoretical * 0.96,
        power_w: online ? power : 0,
        uptime_s: online ? Math.floor(random() * 3_000_000) : 0,
        updated_at: now,
      };
    });
    await insertChunks('miner_state', states, 500);
    made += count;
  }
  // The planner statistics a running server has: PostgreSQL's autovacuum would vacuum and analyze
  // the fresh tables within a minute (done here, so it does not start in the middle of the
  // measurement), the server's `db-statistics` job does it on SQLite (at start and hourly).
  if (app.dbDialect === 'postgres') {
    await sql`vacuum analyze miners, miner_state, fboxes, fbox_state, tanks, tank_state, areas, users`.execute(
      app.db,
    );
    // The seed's writes flushed now, not by the checkpointer during the first measurement.
    await sql`checkpoint`.execute(app.db);
  } else await updateStatistics(app.db, app.dbDialect);
  const seedMs = Date.now() - seedStarted;

  // ── Servers: the real one and a bare route answering the same bytes ─────────────────────────────
  const apiAddress = await app.listen({ port: 0, host: '127.0.0.1' });
  const login = await fetch(`${apiAddress}/index/index/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench', password: 'bench-password-1', googleCode: '' }),
  });
  const token = (await login.json()).data.logintoken;
  const bare = Fastify({ logger: false });
  let bareBody = '';
  bare.get('/bare', (_request, reply) => reply.type('application/json; charset=utf-8').send(bareBody));
  const bareAddress = await bare.listen({ port: 0, host: '127.0.0.1' });

  /** Latencies (ms) of `total` GETs issued by `concurrency` parallel workers. */
  const measure = async (url, headers, total) => {
    const latencies = [];
    let issued = 0;
    const worker = async () => {
      while (issued < total) {
        const i = issued++;
        const started = performance.now();
        const res = await fetch(url(i), { headers });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
        latencies.push(performance.now() - started);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return latencies.sort((a, b) => a - b);
  };
  /** Busy CPU time of the whole machine so far (ms, all cores). */
  const machineBusyMs = () =>
    cpus().reduce((sum, { times }) => sum + times.user + times.nice + times.sys + times.irq, 0);
  const percentile = (sorted, p) =>
    sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  const round = (v) => Math.round(v * 1000) / 1000;

  for (const variant of variants) {
    const pageUrl = (page) =>
      `${apiAddress}/index/fbox.miner/index?area_id=${area.id}&${variant.query}&limit=50&page=${page}`;
    const sampleBody = await (await fetch(pageUrl(1), { headers: { logintoken: token } })).text();
    const parsed = JSON.parse(sampleBody);
    if (parsed.code !== 1 || parsed.data.items.length !== 50)
      throw new Error(`unexpected list answer: ${sampleBody.slice(0, 300)}`);
    bareBody = sampleBody;
    const pages = (i) => pageUrl((i % 10) + 1);
    // Steady state: warm both routes until V8 has optimised their code. With 200 requests the
    // first variant still paid about a third of its CPU to warm-up (measured twice in one run),
    // which the trivial bare route does not; both get the same warm-up.
    await measure(pages, { logintoken: token }, warmupRequests);
    await measure(() => `${bareAddress}/bare`, {}, warmupRequests);
    // The two routes take turns in rounds, so a burst of other work on the machine falls on both
    // rather than on whichever ran at that moment; each pools its rounds' latencies.
    // CPU time of this process (client + server) per request: less noisy than latency on a
    // shared machine, so it shows where a change moved the cost. PostgreSQL's own is not in it.
    const api = [];
    const baseline = [];
    const apiCpuUs = { user: 0, system: 0, machine: 0 };
    const baselineCpuUs = { user: 0, system: 0, machine: 0 };
    const timed = async (latencies, cpu, url, headers, count) => {
      const started = process.cpuUsage();
      const machineStarted = machineBusyMs();
      latencies.push(...(await measure(url, headers, count)));
      const used = process.cpuUsage(started);
      cpu.user += used.user;
      cpu.system += used.system;
      cpu.machine += (machineBusyMs() - machineStarted) * 1000;
    };
    for (let r = 0; r < rounds; r++) {
      const count = Math.ceil(requests / rounds);
      await timed(api, apiCpuUs, pages, { logintoken: token }, count);
      await timed(baseline, baselineCpuUs, () => `${bareAddress}/bare`, {}, count);
    }
    api.sort((a, b) => a - b);
    baseline.sort((a, b) => a - b);
    const cpuPerRequest = (usage) => Math.round((usage.user + usage.system) / api.length);
    console.log(
      JSON.stringify({
        bench: 'api-miner-list',
        variant: variant.name,
        db: app.dbDialect,
        miners: minersTotal,
        query: `${decodeURIComponent(variant.query)}&limit=50&page=1..10`,
        total_matching: parsed.data.total,
        response_bytes: Buffer.byteLength(sampleBody),
        requests: api.length,
        rounds,
        concurrency,
        seed_ms: seedMs,
        p50_ms: round(percentile(api, 50)),
        p95_ms: round(percentile(api, 95)),
        baseline_p50_ms: round(percentile(baseline, 50)),
        baseline_p95_ms: round(percentile(baseline, 95)),
        ratio_p95: round(percentile(api, 95) / percentile(baseline, 95)),
        target_ratio: 3,
        cpu_us_per_request: cpuPerRequest(apiCpuUs),
        baseline_cpu_us_per_request: cpuPerRequest(baselineCpuUs),
        // Every process's CPU (this one, the database server's and anything else running).
        machine_cpu_us_per_request: Math.round(apiCpuUs.machine / api.length),
        baseline_machine_cpu_us_per_request: Math.round(baselineCpuUs.machine / baseline.length),
      }),
    );
  }

  await bare.close();
  await app.close();
  await cleanup();
};

if (!args.includes('--pg-only')) await runOn('sqlite');
if (pgUrl) await runOn('postgres');
