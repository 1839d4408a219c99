// Growth of the miner list (issue 17, goal 5): `api-miner-list.mjs` at each mine size (default
// 10,000, 100,000 and 1,000,000 miners), each size in a process of its own, then one line per
// database and request with its p95 and ratio to the bare route at every size, and how much the p95
// grew from the smallest size to the largest. Passes when every size passes (≤ 3× the bare route).
// The arguments are passed on (`--pg`, `--pg-only`); BENCH_GROWTH_SIZES (comma-separated) sets the
// sizes, BENCH_API_ROUNDS (3 here) the rounds per size. The 1,000,000-miner seed takes about two
// minutes on each database. Run after `npm run build`.
import { growthSizes, reportGrowth, runChildBench } from './lib/child-bench.mjs';
import { round } from './lib/http-latency.mjs';

const sizes = growthSizes();

/** Runs the list bench at one size; answers its per-request lines. */
const measure = async (miners) =>
  (
    await runChildBench('api-miner-list.mjs', process.argv.slice(2), {
      BENCH_MINERS: String(miners),
      BENCH_API_ROUNDS: process.env.BENCH_API_ROUNDS ?? '3',
    })
  ).filter((r) => r.bench === 'api-miner-list' && r.variant);

const rows = [];
for (const miners of sizes) rows.push(...(await measure(miners)));

const pass = reportGrowth(
  rows,
  sizes,
  (r) => `${r.db}|${r.variant}`,
  (bySize, first, last) => ({
    bench: 'api-miner-list.growth',
    db: first.db,
    variant: first.variant,
    sizes: Object.fromEntries(
      bySize.map((r) => [r.miners, { p95_ms: r.p95_ms, ratio_p95: r.ratio_p95, pass: r.pass }]),
    ),
    p95_growth: round(last.p95_ms / first.p95_ms),
    target_ratio: first.target_ratio,
  }),
);
if (!pass) process.exitCode = 1;
