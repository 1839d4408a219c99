// Ingest throughput (DESIGN §10): miner samples/s through the whole path — MQTT publish to the
// embedded broker → decode → validate → batch upsert of state + history rows — against the raw
// batched insert of the same rows with the same driver (better-sqlite3 prepared statements in
// transactions). Also the peak RSS during the ingest run (server and publishers share this process;
// publishers hold one message per gateway at a time). Prints one JSON object per measurement.
// Run after `npm run build`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { connectAsync } from 'mqtt';
import { buildApp } from '../apps/server/dist/app.js';

const boxes = Number(process.env.BENCH_BOXES ?? 20);
const minersPerBox = Number(process.env.BENCH_MINERS_PER_BOX ?? 500);
const rounds = Number(process.env.BENCH_ROUNDS ?? 30);
const samplesTarget = boxes * minersPerBox * rounds;

const miner = (box, i, seq) => ({
  sn: `B${box}M${i}`,
  ip: `10.${box}.${i >> 8}.${i & 255}`,
  worker: `bench.${box}x${i}`,
  model: 'S19 Pro',
  brand: 'Antminer',
  pool: 'ViaBTC',
  pool_address: 'stratum+tcp://btc.viabtc.io:3333',
  firmware: '2024.1',
  tank_no: (i % 4) + 1,
  outlet: i + 1,
  online: true,
  mode: 'high',
  chip_avg_temp: 60 + (i % 5),
  chip_max_temp: 70 + (seq % 7),
  hashrate_theoretical: 110,
  hashrate_realtime: 100 + ((i + seq) % 20),
  hashrate_avg: 105,
  power_w: 3250,
  fault: '',
  uptime_s: 3600 + seq,
});
const tank = (no) => ({
  no,
  oil_in_temp: 40,
  oil_out_temp: 50,
  liquid_level: 90,
  fans: [1200, 1300],
  oil_pump_efficiency: 95,
  water_in_temp: 25,
  water_speed: 2,
  short_circuit: false,
  energy_saving: false,
  control_mode: 'auto',
  main_temperatures: [45, 46],
});
const message = (box, seq) =>
  JSON.stringify({
    v: 1,
    seq,
    ts: Date.now(),
    box: {
      temperature: 30,
      humidity: 40,
      voltage: [400, 400, 400],
      power_kw: 1600,
      meters: [
        { no: 1, energy_kwh: 1000 + seq, power_kw: 800 },
        { no: 2, energy_kwh: 900 + seq, power_kw: 800 },
      ],
    },
    tanks: [1, 2, 3, 4].map(tank),
    miners: Array.from({ length: minersPerBox }, (_, i) => miner(box, i, seq)),
  });

const dir = mkdtempSync(join(tmpdir(), 'fbox-bench-'));
const app = await buildApp({
  logger: false,
  mqtt: true,
  seed: false,
  config: {
    dataDir: dir,
    databaseUrl: undefined,
    mqttUrl: undefined,
    mqttPort: 0,
    mqttPortExplicit: true,
    host: '127.0.0.1',
    demo: false,
    webDist: dir,
  },
});
const owner = await app.users.create({ username: 'bench', password: 'bench-password', is_master: true });
const area = await app.areas.create(owner, { area_name: 'Bench' });
const gateways = [];
for (let b = 0; b < boxes; b++) {
  const fbox = await app.devices.createFbox(area.id, { name: `Box ${b}`, kind: 'immersion', tanks: 4 });
  const client = await connectAsync(`mqtt://127.0.0.1:${app.mqttBroker.port}`, {
    username: fbox.mqtt_username,
    password: fbox.mqtt_password,
  });
  gateways.push({ box: b, client });
}
const publishRound = (seq) =>
  Promise.all(
    gateways.map((g) => g.client.publishAsync(`fbox/${fbox(g)}/telemetry`, message(g.box, seq), { qos: 1 })),
  );
const deviceIds = (await app.db.selectFrom('fboxes').select(['device_id']).orderBy('id').execute()).map(
  (r) => r.device_id,
);
const fbox = (g) => deviceIds[g.box];
const waitSamples = async (n) => {
  while (app.ingest.stats().samples < n) await new Promise((r) => setTimeout(r, 5));
};

// Warm-up: creates the miners and tanks; not timed.
await publishRound(1);
await waitSamples(boxes * minersPerBox);
await app.ingest.drain();
const before = app.ingest.stats().samples;

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 25);
const t0 = performance.now();
for (let r = 0; r < rounds; r++) await publishRound(r + 2);
await waitSamples(before + samplesTarget);
await app.ingest.drain();
const ingestMs = performance.now() - t0;
clearInterval(sampler);
const stats = app.ingest.stats();
for (const g of gateways) await g.client.endAsync();
await app.close();

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
    note: 'server and publishers in one process',
  }),
);
