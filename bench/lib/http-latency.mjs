// What the API latency benches share: a fresh database of each kind, the bare Fastify route that
// answers the same bytes, and the measurement of p95 against it in alternating rounds.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import pg from 'pg';
import { openPostgres, openSqlite } from '../../apps/server/dist/db/database.js';

/** The PostgreSQL server to bench on, if any: `--pg`, `--pg-only`, TEST_DATABASE_URL or DATABASE_URL. */
export const benchPgUrl = (args) =>
  process.env.DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  (args.includes('--pg') || args.includes('--pg-only')
    ? 'postgres://postgres@127.0.0.1:5432/test'
    : undefined);

/** A fresh database of the kind: a temporary SQLite file, or a new PostgreSQL schema. */
export const openBenchDatabase = async (kind, pgUrl, prefix) => {
  const dataDir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  if (kind === 'sqlite') {
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

/** Logs in over HTTP and answers the session token. */
export const loginToken = async (apiAddress, username, password) => {
  const login = await fetch(`${apiAddress}/index/index/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password, googleCode: '' }),
  });
  return (await login.json()).data.logintoken;
};

/** A bare Fastify route answering `body` (set it before measuring): what the real route is compared to. */
export const startBareRoute = async () => {
  const bare = Fastify({ logger: false });
  const state = { body: '' };
  bare.get('/bare', (_request, reply) => reply.type('application/json; charset=utf-8').send(state.body));
  const address = await bare.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: `${address}/bare`,
    setBody: (body) => {
      state.body = body;
    },
    close: () => bare.close(),
  };
};

/** Latencies (ms, sorted) of `total` GETs issued by `concurrency` parallel workers. */
export const measure = async (url, headers, total, concurrency) => {
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
export const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
export const round = (v) => Math.round(v * 1000) / 1000;

/**
 * The real route against the bare one: both warmed up alike, then measured in alternating rounds
 * (a burst of other work on the machine falls on both), with this process's CPU (client + server)
 * and the machine's per request. Answers the figures every API bench prints.
 */
export const compareToBare = async ({ url, headers, bare, requests, rounds, concurrency, warmup }) => {
  const bareUrl = () => bare.url;
  await measure(url, headers, warmup, concurrency);
  await measure(bareUrl, {}, warmup, concurrency);
  const api = [];
  const baseline = [];
  const apiCpu = { user: 0, system: 0, machine: 0 };
  const baselineCpu = { user: 0, system: 0, machine: 0 };
  const timed = async (latencies, cpu, target, head, count) => {
    const started = process.cpuUsage();
    const machineStarted = machineBusyMs();
    latencies.push(...(await measure(target, head, count, concurrency)));
    const used = process.cpuUsage(started);
    cpu.user += used.user;
    cpu.system += used.system;
    cpu.machine += (machineBusyMs() - machineStarted) * 1000;
  };
  for (let r = 0; r < rounds; r++) {
    const count = Math.ceil(requests / rounds);
    await timed(api, apiCpu, url, headers, count);
    await timed(baseline, baselineCpu, bareUrl, {}, count);
  }
  api.sort((a, b) => a - b);
  baseline.sort((a, b) => a - b);
  const perRequest = (usage, n) => Math.round((usage.user + usage.system) / n);
  return {
    requests: api.length,
    rounds,
    concurrency,
    p50_ms: round(percentile(api, 50)),
    p95_ms: round(percentile(api, 95)),
    baseline_p50_ms: round(percentile(baseline, 50)),
    baseline_p95_ms: round(percentile(baseline, 95)),
    ratio_p95: round(percentile(api, 95) / percentile(baseline, 95)),
    cpu_us_per_request: perRequest(apiCpu, api.length),
    baseline_cpu_us_per_request: perRequest(baselineCpu, baseline.length),
    // Every process's CPU (this one, the database server's and anything else running).
    machine_cpu_us_per_request: Math.round(apiCpu.machine / api.length),
    baseline_machine_cpu_us_per_request: Math.round(baselineCpu.machine / baseline.length),
  };
};
