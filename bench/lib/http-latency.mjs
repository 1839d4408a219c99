// What the API latency benches share: a fresh database of each kind, the bare Fastify route that
// answers the same bytes (its own process), and the measurement of p95 against it in alternating
// rounds by a load client (its own process too).
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
  // In the public schema, where the schema's migration finds it (dropping the schema keeps it).
  await admin.query('create extension if not exists pg_trgm');
  await admin.end();
  const database = openPostgres(pgUrl, { options: `-c search_path=${schema}` });
  return {
    database,
    dataDir,
    schema,
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

/** A child node process with IPC, and `ask(message)` answering its reply to that message. */
const childProcess = (script) => {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let next = 0;
  const waiting = new Map();
  const first = new Promise((resolve) => child.once('message', resolve));
  child.on('message', (reply) => {
    const settle = waiting.get(reply.id);
    if (!settle) return;
    waiting.delete(reply.id);
    settle(reply);
  });
  const ask = (message) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      waiting.set(id, (reply) => (reply.error ? reject(new Error(reply.error)) : resolve(reply)));
      child.send({ ...message, id });
    });
  return { child, first, ask, close: () => child.disconnect() };
};

/**
 * The bare Fastify route answering `body` (set it before measuring), in a process of its own: what
 * the real route is compared to.
 */
export const startBareRoute = async () => {
  const bare = childProcess('./bare-route.mjs');
  const { address } = await bare.first;
  return {
    url: `${address}/bare`,
    setBody: (body) => bare.ask({ body }),
    /** The bare route process's CPU so far (µs). */
    cpu: async () => (await bare.ask({})).cpu,
    close: () => bare.close(),
  };
};

/**
 * The load client in a process of its own, for paced (open-loop) probes: `pace({ urls, headers,
 * perSecond, seconds })` answers `{ latencies, failures }`, one list of each per URL.
 */
export const startLoadClient = () => {
  const client = childProcess('./load-client.mjs');
  return {
    pace: async (options) => {
      const { latencies, failures } = await client.ask(options);
      return { latencies, failures };
    },
    close: () => client.close(),
  };
};

/** Busy CPU time of the whole machine so far (ms, all cores). */
const machineBusyMs = () =>
  cpus().reduce((sum, { times }) => sum + times.user + times.nice + times.sys + times.irq, 0);
export const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
export const round = (v) => Math.round(v * 1000) / 1000;

/**
 * The real route (served by this process) against the bare one (its own process), loaded by a
 * client in a third process: both warmed up alike, then measured in alternating rounds (a burst of
 * other work on the machine falls on both). CPU per request is the serving process's own (this
 * one's for the real route, the bare process's for the baseline), and the machine's. Answers the
 * figures every API bench prints.
 */
export const compareToBare = async ({ urls, headers, bare, requests, rounds, concurrency, warmup }) => {
  const client = childProcess('./load-client.mjs');
  const run = async (target, count) =>
    (
      await client.ask(
        target === 'api'
          ? { urls, headers, count, concurrency }
          : { urls: [bare.url], headers: {}, count, concurrency },
      )
    ).latencies;
  try {
    await run('api', warmup);
    await run('bare', warmup);
    const api = [];
    const baseline = [];
    const apiCpu = { own: 0, machine: 0 };
    const baselineCpu = { own: 0, machine: 0 };
    const count = Math.ceil(requests / rounds);
    for (let r = 0; r < rounds; r++) {
      let machine = machineBusyMs();
      const started = process.cpuUsage();
      api.push(...(await run('api', count)));
      const used = process.cpuUsage(started);
      apiCpu.own += used.user + used.system;
      apiCpu.machine += (machineBusyMs() - machine) * 1000;
      machine = machineBusyMs();
      const bareStarted = await bare.cpu();
      baseline.push(...(await run('bare', count)));
      baselineCpu.own += (await bare.cpu()) - bareStarted;
      baselineCpu.machine += (machineBusyMs() - machine) * 1000;
    }
    api.sort((a, b) => a - b);
    baseline.sort((a, b) => a - b);
    return {
      requests: api.length,
      rounds,
      concurrency,
      p50_ms: round(percentile(api, 50)),
      p95_ms: round(percentile(api, 95)),
      baseline_p50_ms: round(percentile(baseline, 50)),
      baseline_p95_ms: round(percentile(baseline, 95)),
      ratio_p95: round(percentile(api, 95) / percentile(baseline, 95)),
      // The serving process's CPU: the real server's, and the bare route's.
      cpu_us_per_request: Math.round(apiCpu.own / api.length),
      baseline_cpu_us_per_request: Math.round(baselineCpu.own / baseline.length),
      // Every process's CPU (the load client's, the database server's and anything else running).
      machine_cpu_us_per_request: Math.round(apiCpu.machine / api.length),
      baseline_machine_cpu_us_per_request: Math.round(baselineCpu.machine / baseline.length),
    };
  } finally {
    client.close();
  }
};

/** The longest gap between turns of the event loop while `work` runs, and its total time; ms. */
export const longestBlock = async (work) => {
  let last = performance.now();
  let longest = 0;
  let done = false;
  const probe = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (!done) setImmediate(probe);
  };
  setImmediate(probe);
  const started = performance.now();
  await work();
  const total = performance.now() - started;
  done = true;
  await new Promise((resolve) => setImmediate(resolve));
  return { longest: round(longest), total: round(total) };
};
