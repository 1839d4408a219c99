// Ingest throughput (DESIGN §10): miner samples/s through the whole path — MQTT publish to the
// embedded broker → decode → validate → batch upsert of state + history rows — against the raw
// batched insert of the same rows with the same driver (better-sqlite3 prepared statements in
// transactions). Also the peak RSS of the server process during the ingest run: the MQTT publishers
// run in a forked child process (bench/lib/ingest-publisher.mjs) talking to the embedded broker over
// TCP, so the figure is the server's alone. Prints one JSON object per measurement.
// Run after `npm run build`.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { miner } from './lib/ingest-publisher.mjs';
import { startIngestBench } from './lib/ingest-setup.mjs';

const boxes = Number(process.env.BENCH_BOXES ?? 20);
const minersPerBox = Number(process.env.BENCH_MINERS_PER_BOX ?? 500);
const rounds = Number(process.env.BENCH_ROUNDS ?? 30);
const samplesTarget = boxes * minersPerBox * rounds;

const { app, dir, publishRounds, waitSamples, stop } = await startIngestBench({ boxes, minersPerBox });

// Warm-up: creates the miners and tanks; not timed.
await publishRounds(1, 1);
await waitSamples(boxes * minersPerBox);
await app.ingest.drain();
const before = app.ingest.stats().samples;

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 25);
const t0 = performance.now();
const { peakRss: publisherPeakRss } = await publishRounds(2, rounds);
await waitSamples(before + samplesTarget);
await app.ingest.drain();
const ingestMs = performance.now() - t0;
clearInterval(sampler);
const stats = app.ingest.stats();
await stop({ keepDir: true });

// Baseline: the same rows, raw, with the same driver, into the same database (same miners, same
// indexes and foreign keys), its history emptied first.
const db = new SQLite(join(dir, 'fbox.db'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');
db.exec('delete from miner_samples');
const ids = new Map(
  db
    .prepare('select sn, id, fbox_id, area_id from miners')
    .all()
    .map((r) => [r.sn, r]),
);
const stateCols = [
  'miner_id',
  'area_id',
  'fbox_id',
  'tank_id',
  'sn',
  'worker',
  'model',
  'brand',
  'pool',
  'pool_address',
  'ip',
  'firmware',
  'outlet',
  'online',
  'mode',
  'fault',
  'chip_avg_temp',
  'chip_max_temp',
  'hashrate_theoretical',
  'hashrate_realtime',
  'hashrate_avg',
  'power_w',
  'uptime_s',
  'updated_at',
];
const upsert = db.prepare(
  `insert into miner_state (${stateCols.join(',')}) values (${stateCols.map(() => '?').join(',')}) on conflict (miner_id) do update set ${stateCols
    .slice(1)
    .map((c) => `${c}=excluded.${c}`)
    .join(',')}`,
);
const sample = db.prepare(
  'insert into miner_samples (miner_id, ts, hashrate, power_w, chip_max_temp, online) values (?,?,?,?,?,?)',
);
const rows = [];
for (let b = 0; b < boxes; b++)
  for (let i = 0; i < minersPerBox; i++) rows.push({ ...ids.get(`B${b}M${i}`), b, i });
const t1 = performance.now();
for (let r = 0; r < rounds; r++) {
  const seq = r + 2;
  db.transaction(() => {
    for (const { id, fbox_id, area_id, b, i } of rows) {
      const m = miner(b, i, seq);
      upsert.run(
        id,
        area_id,
        fbox_id,
        null,
        m.sn,
        m.worker,
        m.model,
        m.brand,
        m.pool,
        m.pool_address,
        m.ip,
        m.firmware,
        m.outlet,
        1,
        m.mode,
        m.fault,
        m.chip_avg_temp,
        m.chip_max_temp,
        m.hashrate_theoretical,
        m.hashrate_realtime,
        m.hashrate_avg,
        m.power_w,
        m.uptime_s,
        Date.now(),
      );
      sample.run(id, Date.now(), m.hashrate_realtime, m.power_w, m.chip_max_temp, 1);
    }
  })();
}
const rawMs = performance.now() - t1;
db.close();
rmSync(dir, { recursive: true, force: true });

const ingestRate = (samplesTarget / ingestMs) * 1000;
const rawRate = (samplesTarget / rawMs) * 1000;
console.log(
  JSON.stringify({
    bench: 'ingest.samplesPerSecond',
    dialect: 'sqlite',
    gateways: boxes,
    minersPerMessage: minersPerBox,
    samples: samplesTarget,
    ms: Math.round(ingestMs),
    samplesPerSecond: Math.round(ingestRate),
    baselineMs: Math.round(rawMs),
    baselineSamplesPerSecond: Math.round(rawRate),
    ratio: Math.round((ingestRate / rawRate) * 100) / 100,
    target: { samplesPerSecond: 50_000, ratio: 0.3 },
    batches: stats.batches,
    avgBatchMs: stats.avgBatchMs,
    rejected: stats.rejected,
    duplicates: stats.duplicates,
    pass: ingestRate >= 50_000 && ingestRate / rawRate >= 0.3,
  }),
);
console.log(
  JSON.stringify({
    bench: 'ingest.peakRssMB',
    peakRssMB: Math.round(peakRss / 1048576),
    publisherPeakRssMB: Math.round(publisherPeakRss / 1048576),
    note: 'server process alone; MQTT publishers in a child process over TCP',
  }),
);
