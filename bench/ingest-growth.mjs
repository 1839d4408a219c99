// Growth of ingest (issue 17, goal 5): at each mine size (default 10,000, 100,000 and 1,000,000
// miners, 500 a gateway), each run in a process of its own:
// - `ingest.mjs`, closed loop: samples/s through the whole path against the raw write of the same
//   rows, over about 300,000 samples (at least one round of the whole mine);
// - `ingest-sustained.mjs` at the mine's own rate, every miner reporting once in 30 s (miners / 30
//   samples/s): whether one server keeps up with a site that size, with the lag (publish →
//   acknowledgement after commit), the API p99 under that load and the peak RSS.
// Then one line per database with every size's figures and their growth from the smallest size
// to the largest. A size passes when the server keeps up with it (everything acknowledged, lag p99
// ≤ 1 s), answers the API within 100 ms at p99 and stays within 400 MB (issue 17's targets).
// The arguments are passed on (`--pg`, `--pg-only`); BENCH_GROWTH_SIZES (comma-separated) sets the
// sizes, BENCH_SUSTAINED_SECONDS (60) the load's length. Run after `npm run build`.
import { growthSizes, reportGrowth, runChildBench } from './lib/child-bench.mjs';
import { round } from './lib/http-latency.mjs';

const sizes = growthSizes();
const minersPerBox = 500;
const reportSeconds = 30;
const closedLoopSamples = 300_000;
const targets = { lagP99Ms: 1000, apiP99Ms: 100, rssMB: 400 };
const args = process.argv.slice(2);

/** The figures of one size, by database. */
const measure = async (miners) => {
  const boxes = Math.ceil(miners / minersPerBox);
  const env = { BENCH_BOXES: String(boxes), BENCH_MINERS_PER_BOX: String(minersPerBox) };
  const closed = await runChildBench('ingest.mjs', args, {
    ...env,
    BENCH_ROUNDS: String(Math.max(1, Math.round(closedLoopSamples / miners))),
  });
  const sustained = await runChildBench('ingest-sustained.mjs', args, {
    ...env,
    BENCH_SUSTAINED_RATE: String(Math.round(miners / reportSeconds)),
  });
  const dialects = [...new Set(closed.map((r) => r.dialect))];
  return dialects.map((db) => {
    const rate = closed.find((r) => r.dialect === db && r.bench === 'ingest.samplesPerSecond');
    const site = sustained.find((r) => r.dialect === db && r.bench === 'ingest.sustained');
    const apiP99 = Math.max(...Object.values(site.api).map((a) => a.load_p99_ms ?? Number.POSITIVE_INFINITY));
    const checks = {
      keeps_up:
        site.unacked_after_drain === 0 && site.lag_p99_ms !== null && site.lag_p99_ms <= targets.lagP99Ms,
      api: apiP99 <= targets.apiP99Ms,
      rss: site.peak_rss_mb <= targets.rssMB,
    };
    return {
      db,
      miners,
      closed_loop_samples_per_s: rate.samplesPerSecond,
      raw_write_samples_per_s: rate.baselineSamplesPerSecond,
      ratio_to_raw: rate.ratio,
      site_rate_samples_per_s: site.offered_samples_per_s,
      site_committed_samples_per_s: site.committed_samples_per_s,
      site_lag_p99_ms: site.lag_p99_ms,
      site_api_p99_ms: apiP99,
      site_peak_rss_mb: site.peak_rss_mb,
      checks,
      pass: Object.values(checks).every(Boolean),
    };
  });
};

const rows = [];
for (const miners of sizes) rows.push(...(await measure(miners)));

const pass = reportGrowth(
  rows,
  sizes,
  (r) => r.db,
  (bySize, first, last) => ({
    bench: 'ingest.growth',
    db: first.db,
    sizes: Object.fromEntries(bySize.map(({ db: _, miners, ...figures }) => [miners, figures])),
    closed_loop_growth: round(last.closed_loop_samples_per_s / first.closed_loop_samples_per_s),
    rss_growth: round(last.site_peak_rss_mb / first.site_peak_rss_mb),
    target: { lag_p99_ms: targets.lagP99Ms, api_p99_ms: targets.apiP99Ms, rss_mb: targets.rssMB },
  }),
);
if (!pass) process.exitCode = 1;
