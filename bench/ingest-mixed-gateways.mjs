// Ingest with gateways of different sizes (issue 17, goal 1). The other ingest benches give every
// gateway the same number of miners, so batches come in a handful of sizes; a real site's boxes
// differ, and a batch's row counts change with every batch. That hid a statement cache holding
// hundreds of megabytes of multi-row statements of every size (session 33). This bench runs the
// same number of samples through ingest twice, each in a process of its own on SQLite: 200 gateways
// of 400 miners (the baseline), then 200 gateways of 300–499 miners. Messages go straight to
// `ingest.handle` (the broker is measured elsewhere), 10 rounds after one that creates the miners.
// Prints one JSON line with both runs' samples/s and peak RSS, the ratios, and pass/fail: peak RSS
// at most 1.15× and samples/s at least 0.85× the baseline's. BENCH_MIXED_ROUNDS (10) tunes it.
// Run after `npm run build`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBenchApp } from './lib/bench-app.mjs';
import { runChildBench } from './lib/child-bench.mjs';
import { round } from './lib/http-latency.mjs';
import { message } from './lib/ingest-publisher.mjs';

const gateways = 200;
const rounds = Number(process.env.BENCH_MIXED_ROUNDS ?? 10);
const targets = { rssRatio: 1.15, rateRatio: 0.85 };
const shapeArg = process.argv.find((a) => a.startsWith('--shape='));

/** Miners of gateway `box`: 400 each, or 300–499 (37 is prime to 200, so every size once). */
const sizeOf = (shape, box) => (shape === 'uniform' ? 400 : 300 + ((box * 37) % 200));

const runShape = async (shape) => {
  const dir = mkdtempSync(join(tmpdir(), 'fbox-bench-mixed-'));
  const app = await buildBenchApp({ dir });
  const owner = await app.users.create({ username: 'bench', password: 'bench-password', is_master: true });
  const area = await app.areas.create(owner, { area_name: 'Bench' });
  for (let b = 0; b < gateways; b++)
    await app.devices.createFbox(area.id, { name: `Box ${b}`, kind: 'immersion', tanks: 4 });
  const deviceIds = (await app.db.selectFrom('fboxes').select('device_id').orderBy('id').execute()).map(
    (r) => r.device_id,
  );
  const publishRound = (seq) =>
    Promise.all(
      deviceIds.map((id, b) =>
        app.ingest.handle(`fbox/${id}/telemetry`, Buffer.from(message(b, seq, sizeOf(shape, b)))),
      ),
    );
  await publishRound(1);
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const started = performance.now();
  for (let seq = 2; seq <= rounds + 1; seq++) await publishRound(seq);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  let samples = 0;
  for (let b = 0; b < gateways; b++) samples += sizeOf(shape, b) * rounds;
  // Every sample of every round stored (the first round's too), or the figures mean nothing.
  const stored = app.ingest.stats().samples;
  if (stored !== samples + samples / rounds)
    throw new Error(`${shape}: ${stored} samples stored, expected ${samples + samples / rounds}`);
  await app.close();
  rmSync(dir, { recursive: true, force: true });
  console.log(
    JSON.stringify({
      shape,
      samples,
      samples_per_s: Math.round(samples / seconds),
      peak_rss_mb: Math.round(peak / 1048576),
    }),
  );
};

if (shapeArg) {
  await runShape(shapeArg.slice('--shape='.length));
} else {
  const [uniform] = await runChildBench('ingest-mixed-gateways.mjs', ['--shape=uniform']);
  const [mixed] = await runChildBench('ingest-mixed-gateways.mjs', ['--shape=mixed']);
  const rssRatio = round(mixed.peak_rss_mb / uniform.peak_rss_mb);
  const rateRatio = round(mixed.samples_per_s / uniform.samples_per_s);
  console.log(
    JSON.stringify({
      bench: 'ingest.mixed-gateways',
      dialect: 'sqlite',
      gateways,
      rounds,
      baseline: uniform,
      mixed,
      rss_ratio: rssRatio,
      rate_ratio: rateRatio,
      target: { rss_ratio_max: targets.rssRatio, rate_ratio_min: targets.rateRatio },
      pass: rssRatio <= targets.rssRatio && rateRatio >= targets.rateRatio,
    }),
  );
}
