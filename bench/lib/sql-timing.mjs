// Times every SQLite statement a bench's server runs, per SQL text, on each thread: preload it,
// e.g. `node --import ./bench/lib/sql-timing.mjs bench/api-miner-list.mjs --sweep` or
// `node --import ./bench/lib/sql-timing.mjs bench/ingest-sustained.mjs --dialect=sqlite` (a bench that
// spawns a process per database needs its `--dialect`, since the child is not preloaded). It wraps
// better-sqlite3's `all`, `run` and `get` and prints to stderr, slowest total first: the main
// thread's at exit, a worker thread's (the ingest writer) every SQL_TIMING_DUMP_MS (15000).
// SQL_TIMING_AFTER_MS (0) skips a seed; SQL_TIMING_TAIL (260) keeps that many characters of the end
// of each statement (where its WHERE and ORDER BY are); SQL_TIMING_TOP (15) rows are printed.
import { createRequire } from 'node:module';
import { isMainThread, threadId } from 'node:worker_threads';

const env = (name, fallback) => Number(process.env[name] ?? fallback);
const tail = env('SQL_TIMING_TAIL', 260);
const require = createRequire(new URL('../../apps/server/package.json', import.meta.url));
const SQLite = require('better-sqlite3');
const probe = new SQLite(':memory:');
const statement = Object.getPrototypeOf(probe.prepare('select 1'));
probe.close();

const totals = new Map();
let timing = false;
setTimeout(
  () => {
    timing = true;
  },
  env('SQL_TIMING_AFTER_MS', 0),
).unref();

for (const method of ['all', 'run', 'get']) {
  const original = statement[method];
  statement[method] = function (...args) {
    if (!timing) return original.apply(this, args);
    const started = process.hrtime.bigint();
    try {
      return original.apply(this, args);
    } finally {
      const us = Number(process.hrtime.bigint() - started) / 1000;
      const key = this.source.replace(/\s+/g, ' ').slice(-tail);
      const total = totals.get(key) ?? { calls: 0, us: 0 };
      total.calls++;
      total.us += us;
      totals.set(key, total);
    }
  };
}

const print = () => {
  if (totals.size === 0) return;
  console.error(`--- SQLite statements, ${isMainThread ? 'main thread' : `thread ${threadId}`}`);
  const top = [...totals].sort((a, b) => b[1].us - a[1].us).slice(0, env('SQL_TIMING_TOP', 15));
  for (const [sql, { calls, us }] of top)
    console.error(
      `${(us / 1000).toFixed(0).padStart(7)} ms ${String(calls).padStart(7)} calls ${(us / calls).toFixed(0).padStart(6)} us  ${sql}`,
    );
};
if (isMainThread) process.on('exit', print);
else setInterval(print, env('SQL_TIMING_DUMP_MS', 15_000)).unref();
