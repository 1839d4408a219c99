// Sustained ingest (issue 17, goal 3): a 100,000-miner mine (200 gateways × 500 miners) offered
// telemetry at a fixed rate for 60 s, open loop, the way gateways send it whatever the server is
// doing. Each message is acknowledged by the server after its batch commits, so the publisher's
// acknowledgement latency is the ingest lag. Meanwhile a load client in its own process asks the
// API, also open loop, for the signed-in user and the console's default miner list page
// (`page=1&limit=20`); its p99 is compared with the same probe on the idle server just before.
// Prints one JSON line per database with the committed rate against the offered one, the lag, the
// API p99 under load and idle, the server's peak RSS, and pass/fail against the targets:
// ≥ 100,000 samples/s (SQLite) and ≥ 66,000/s (PostgreSQL) committed, lag p99 ≤ 1 s, API p99
// ≤ 100 ms, RSS ≤ 400 MB. SQLite always, PostgreSQL with `--pg`, TEST_DATABASE_URL or DATABASE_URL
// (`--pg-only` skips SQLite). BENCH_SUSTAINED_RATE (samples/s; default: the target),
// BENCH_SUSTAINED_SECONDS (60), BENCH_BOXES (200) and BENCH_MINERS_PER_BOX (500) tune it;
// BENCH_DEBUG=1 prints the server's memory and ingest's backlog every 2 s (stderr). The server runs
// its periodic jobs (history rollups, retention, planner statistics) as it does in production;
// BENCH_SUSTAINED_JOBS=0 leaves them off.
// Run after `npm run build`.
import { spawn } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { benchPgUrl, loginToken, percentile, round, startLoadClient } from './lib/http-latency.mjs';
import { startIngestBench } from './lib/ingest-setup.mjs';

const boxes = Number(process.env.BENCH_BOXES ?? 200);
const minersPerBox = Number(process.env.BENCH_MINERS_PER_BOX ?? 500);
const seconds = Number(process.env.BENCH_SUSTAINED_SECONDS ?? 60);
const probePerSecond = 10;
const jobs = process.env.BENCH_SUSTAINED_JOBS !== '0';
const idleSeconds = 10;
const args = process.argv.slice(2);
const pgUrl = benchPgUrl(args);
const targets = {
  sqlite: { samplesPerSecond: 100_000 },
  postgres: { samplesPerSecond: 66_000 },
  lagP99Ms: 1000,
  apiP99Ms: 100,
  rssMB: 400,
};

const p = (values, q) =>
  values.length === 0
    ? null
    : round(
        percentile(
          [...values].sort((a, b) => a - b),
          q,
        ),
      );

const run = async (kind) => {
  const offered = Number(process.env.BENCH_SUSTAINED_RATE ?? targets[kind].samplesPerSecond);
  const bench = await startIngestBench({
    boxes,
    minersPerBox,
    pgUrl: kind === 'postgres' ? pgUrl : undefined,
    jobs,
  });
  const { app, area } = bench;
  const probe = startLoadClient();
  try {
    // Warm-up: creates the miners and tanks; not measured.
    await bench.publishRounds(1, 1);
    await bench.waitSamples(boxes * minersPerBox);
    await app.ingest.drain();

    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const headers = { logintoken: await loginToken(address, 'bench', 'bench-password') };
    const probes = [
      { name: 'user_info', url: `${address}/index/fbox.user/getuserinfo` },
      { name: 'miner_list', url: `${address}/index/fbox.miner/index?area_id=${area.id}&page=1&limit=20` },
    ];
    const urls = probes.map((x) => x.url);
    await probe.pace({ urls, headers, perSecond: probePerSecond, seconds: 3 }); // warm-up
    const idle = await probe.pace({ urls, headers, perSecond: probePerSecond, seconds: idleSeconds });

    const idleRss = process.memoryUsage().rss;
    let peakRss = idleRss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
    // BENCH_DEBUG: the server's memory (MB), ingest's backlog and samples stored so far, every 2 s.
    const debug = process.env.BENCH_DEBUG
      ? setInterval(() => {
          const m = process.memoryUsage();
          const mb = (bytes) => Math.round(bytes / 1048576);
          console.error(
            JSON.stringify({
              rss: mb(m.rss),
              heap: mb(m.heapUsed),
              buffers: mb(m.arrayBuffers),
              backlog: app.ingest.backlog(),
              stored: app.ingest.stats().samples,
            }),
          );
        }, 2000)
      : undefined;
    // The longest the server's event loop was held during the load (a job's statement, a batch).
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    const before = app.ingest.stats().samples;
    let atEnd = before;
    const window = setTimeout(() => (atEnd = app.ingest.stats().samples), seconds * 1000);
    const [streamed, loaded] = await Promise.all([
      bench.stream({ from: 2, samplesPerSecond: offered, seconds, drainSeconds: 15 }),
      probe.pace({ urls, headers, perSecond: probePerSecond, seconds }),
    ]);
    clearTimeout(window);
    loopDelay.disable();
    clearInterval(sampler);
    clearInterval(debug);

    const committed = (atEnd - before) / seconds;
    const lagP99 = p(streamed.ackMs, 99);
    // A request that failed (refused, reset) counts as slower than any answered one.
    const api = Object.fromEntries(
      probes.map(({ name }, k) => {
        const answered = loaded.latencies[k];
        const failed = loaded.failures[k];
        const underLoad = p([...answered, ...failed.map(() => Number.POSITIVE_INFINITY)], 99);
        const atIdle = p(idle.latencies[k], 99);
        const finite = underLoad === Number.POSITIVE_INFINITY ? null : underLoad;
        return [
          name,
          {
            idle_p99_ms: atIdle,
            load_p99_ms: finite,
            load_max_ms: p(answered, 100),
            failed: failed.length,
            first_failure: failed[0],
            ratio: finite === null ? null : round(finite / atIdle),
          },
        ];
      }),
    );
    const apiP99 = Math.max(...Object.values(api).map((a) => a.load_p99_ms ?? Number.POSITIVE_INFINITY));
    const peakRssMB = Math.round(peakRss / 1048576);
    const checks = {
      rate: committed >= targets[kind].samplesPerSecond,
      lag: streamed.acked === streamed.published && lagP99 !== null && lagP99 <= targets.lagP99Ms,
      api: apiP99 <= targets.apiP99Ms,
      rss: peakRssMB <= targets.rssMB,
    };
    console.log(
      JSON.stringify({
        bench: 'ingest.sustained',
        dialect: kind,
        miners: boxes * minersPerBox,
        gateways: boxes,
        seconds,
        jobs,
        offered_samples_per_s: offered,
        committed_samples_per_s: Math.round(committed),
        ratio: round(committed / offered),
        published_messages: streamed.published,
        acked_messages: streamed.acked,
        unacked_after_drain: streamed.published - streamed.acked,
        lag_p50_ms: p(streamed.ackMs, 50),
        lag_p99_ms: lagP99,
        publisher_behind_ms: Math.round(streamed.behindMs),
        api,
        event_loop_max_ms: Math.round(loopDelay.max / 1e6),
        idle_rss_mb: Math.round(idleRss / 1048576),
        peak_rss_mb: peakRssMB,
        target: {
          committed_samples_per_s: targets[kind].samplesPerSecond,
          lag_p99_ms: targets.lagP99Ms,
          api_p99_ms: targets.apiP99Ms,
          rss_mb: targets.rssMB,
        },
        checks,
        pass: Object.values(checks).every(Boolean),
      }),
    );
  } finally {
    probe.close();
    await bench.stop({ force: true });
  }
};

// Each database in a process of its own, so one run's memory does not count in the other's.
const only = args.find((a) => a.startsWith('--dialect='))?.slice('--dialect='.length);
if (only) await run(only);
else {
  const dialects = [...(args.includes('--pg-only') ? [] : ['sqlite']), ...(pgUrl ? ['postgres'] : [])];
  for (const dialect of dialects) {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), ...args, `--dialect=${dialect}`], {
      stdio: 'inherit',
    });
    const code = await new Promise((resolve) => child.on('exit', resolve));
    if (code !== 0) process.exitCode = code ?? 1;
  }
}
