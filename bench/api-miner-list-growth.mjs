// Growth of the miner list (issue 17, goal 5): `api-miner-list.mjs` at each mine size (default
// 10,000, 100,000 and 1,000,000 miners), each size in a process of its own, then one line per
// database and request with its p95 and ratio to the bare route at every size, and how much the p95
// grew from the smallest size to the largest. Passes when every size passes (≤ 3× the bare route).
// The arguments are passed on (`--pg`, `--pg-only`); BENCH_GROWTH_SIZES (comma-separated) sets the
// sizes, BENCH_API_ROUNDS (3 here) the rounds per size. The 1,000,000-miner seed takes about two
// minutes on each database. Run after `npm run build`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { round } from './lib/http-latency.mjs';

const sizes = (process.env.BENCH_GROWTH_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const listBench = fileURLToPath(new URL('./api-miner-list.mjs', import.meta.url));

/** Runs the list bench at one size; answers its JSON lines, printed as they come. */
const measure = (miners) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [listBench, ...process.argv.slice(2)], {
      env: {
        ...process.env,
        BENCH_MINERS: String(miners),
        BENCH_API_ROUNDS: process.env.BENCH_API_ROUNDS ?? '3',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      process.stdout.write(chunk);
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(
            out
              .split('\n')
              .filter((line) => line.startsWith('{'))
              .map((line) => JSON.parse(line))
              .filter((r) => r.bench === 'api-miner-list' && r.variant),
          )
        : reject(new Error(`api-miner-list.mjs at ${miners} miners exited with ${code}`)),
    );
  });

const rows = [];
for (const miners of sizes) rows.push(...(await measure(miners)));

let failed = false;
const keys = [...new Set(rows.map((r) => `${r.db}|${r.variant}`))];
for (const key of keys) {
  const [db, variant] = key.split('|');
  const bySize = rows.filter((r) => r.db === db && r.variant === variant).sort((a, b) => a.miners - b.miners);
  const first = bySize[0];
  const last = bySize.at(-1);
  const pass = bySize.length === sizes.length && bySize.every((r) => r.pass);
  failed ||= !pass;
  console.log(
    JSON.stringify({
      bench: 'api-miner-list.growth',
      db,
      variant,
      sizes: Object.fromEntries(
        bySize.map((r) => [r.miners, { p95_ms: r.p95_ms, ratio_p95: r.ratio_p95, pass: r.pass }]),
      ),
      p95_growth: round(last.p95_ms / first.p95_ms),
      target_ratio: first.target_ratio,
      pass,
    }),
  );
}
if (failed) process.exitCode = 1;
