// Ingest throughput (DESIGN §10): miner samples/s through the whole path — MQTT publish to the
// embedded broker → decode → validate → batch upsert of state + history rows — against the raw
// batched write of the same rows with the same driver into the same database: on SQLite,
// better-sqlite3 prepared statements in transactions; on PostgreSQL, one `unnest` statement per
// table and round in a transaction, with pg. Also the peak RSS of the server process during the
// ingest run: the MQTT publishers run in a forked child process (bench/lib/ingest-publisher.mjs)
// talking to the embedded broker over TCP, so the figure is the server's alone. Prints one JSON
// object per measurement and database: SQLite always, then PostgreSQL when `--pg`,
// TEST_DATABASE_URL or DATABASE_URL names a server (`--pg-only` skips SQLite).
// Run after `npm run build`.
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  minerInfoRow,
  minerReadingsRow,
  minerSampleColumns,
  minerSampleRow,
  minerStateWrites,
} from '../apps/server/dist/devices/telemetry-rows.js';
import { benchPgUrl } from './lib/http-latency.mjs';
import { miner } from './lib/ingest-publisher.mjs';
import { startIngestBench } from './lib/ingest-setup.mjs';

const boxes = Number(process.env.BENCH_BOXES ?? 20);
const minersPerBox = Number(process.env.BENCH_MINERS_PER_BOX ?? 500);
const rounds = Number(process.env.BENCH_ROUNDS ?? 30);
const samplesTarget = boxes * minersPerBox * rounds;
const args = process.argv.slice(2);
const pgUrl = benchPgUrl(args);

// The server's own rows and write shape (telemetry-rows.ts): the readings of every miner to
// `miner_readings`; its settings to `miner_info` only where one differs.
const { info, readings } = minerStateWrites;
const sampleCols = minerSampleColumns;

/** A round's `miner_info`, `miner_readings` and sample rows of a miner, as the server builds them. */
const rowsOf = ({ id, fbox_id, area_id, tank_id, b, i }, seq) => {
  const m = miner(b, i, seq);
  const now = Date.now();
  return [
    minerInfoRow(m, { minerId: id, areaId: area_id, fboxId: fbox_id, tankId: tank_id }),
    minerReadingsRow(m, id, now),
    minerSampleRow(m, id, now),
  ];
};

/** The upsert of one of `minerStateWrites`, with the values placeholders `values` gives. */
const upsertText = (write, values, differs) =>
  `insert into ${write.table} (${write.columns.join(',')}) ${values} on conflict (miner_id) do update set ${write.conflict.update
    .map((c) => `${c}=excluded.${c}`)
    .join(
      ',',
    )}${write.conflict.onlyChanged ? ` where ${write.conflict.update.map((c) => differs(write.table, c)).join(' or ')}` : ''}`;

/** The bench's miners as the server created them, in publishing order. */
const minerRows = (list) => {
  const bySn = new Map(list.map((r) => [r.sn, r]));
  const rows = [];
  for (let b = 0; b < boxes; b++)
    for (let i = 0; i < minersPerBox; i++) rows.push({ ...bySn.get(`B${b}M${i}`), b, i });
  return rows;
};

/** The raw write of `rounds` rounds on SQLite; ms. */
const sqliteBaseline = (dir) => {
  const db = new SQLite(join(dir, 'fbox.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.exec('delete from miner_samples');
  const rows = minerRows(db.prepare('select sn, id, fbox_id, area_id, tank_id from miners').all());
  const upserts = [info, readings].map((write) =>
    db.prepare(
      upsertText(
        write,
        `values (${write.columns.map(() => '?').join(',')})`,
        (table, c) => `${table}.${c} is not excluded.${c}`,
      ),
    ),
  );
  const sample = db.prepare(
    `insert into miner_samples (${sampleCols.join(',')}) values (${sampleCols.map(() => '?').join(',')})`,
  );
  const t1 = performance.now();
  for (let r = 0; r < rounds; r++) {
    db.transaction(() => {
      for (const row of rows) {
        const [infoValues, readingValues, sampleValues] = rowsOf(row, r + 2);
        upserts[0].run(...infoValues);
        upserts[1].run(...readingValues);
        sample.run(...sampleValues);
      }
    })();
  }
  const ms = performance.now() - t1;
  db.close();
  return ms;
};

/** The raw write of `rounds` rounds on PostgreSQL, in the bench's schema; ms. */
const postgresBaseline = async (schema) => {
  const client = new pg.Client({ connectionString: pgUrl, options: `-c search_path=${schema}` });
  await client.connect();
  await client.query('delete from miner_samples');
  const rows = minerRows((await client.query('select sn, id, fbox_id, area_id, tank_id from miners')).rows);
  const typesOf = async (table, columns) => {
    const { rows: types } = await client.query(
      'select attname, format_type(atttypid, atttypmod) as type from pg_attribute where attrelid = $1::regclass and attnum > 0',
      [table],
    );
    const byName = new Map(types.map((t) => [t.attname, t.type]));
    return columns.map((c, n) => `$${n + 1}::${byName.get(c)}[]`).join(',');
  };
  const [upsertInfo, upsertReadings] = await Promise.all(
    [info, readings].map(async (write) =>
      upsertText(
        write,
        `select * from unnest(${await typesOf(write.table, write.columns)})`,
        (table, c) => `${table}.${c} is distinct from excluded.${c}`,
      ),
    ),
  );
  const insertSamples = `insert into miner_samples (${sampleCols.join(',')}) select * from unnest(${await typesOf('miner_samples', sampleCols)})`;
  const columnsOf = (table, width) => Array.from({ length: width }, (_, c) => table.map((row) => row[c]));
  const t1 = performance.now();
  for (let r = 0; r < rounds; r++) {
    const round = rows.map((row) => rowsOf(row, r + 2));
    await client.query('begin');
    for (const [n, write, text] of [
      [0, info, upsertInfo],
      [1, readings, upsertReadings],
    ])
      await client.query({
        name: `bench_${write.table}`,
        text,
        values: columnsOf(
          round.map((rows) => rows[n]),
          write.columns.length,
        ),
      });
    await client.query({
      name: 'bench_samples',
      text: insertSamples,
      values: columnsOf(
        round.map(([, , sample]) => sample),
        sampleCols.length,
      ),
    });
    await client.query('commit');
  }
  const ms = performance.now() - t1;
  await client.end();
  return ms;
};

const run = async (kind) => {
  const { app, dir, schema, publishRounds, waitSamples, stop, dropDatabase } = await startIngestBench({
    boxes,
    minersPerBox,
    pgUrl: kind === 'postgres' ? pgUrl : undefined,
  });

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

  const rawMs = kind === 'postgres' ? await postgresBaseline(schema) : sqliteBaseline(dir);
  await dropDatabase();

  const ingestRate = (samplesTarget / ingestMs) * 1000;
  const rawRate = (samplesTarget / rawMs) * 1000;
  console.log(
    JSON.stringify({
      bench: 'ingest.samplesPerSecond',
      dialect: kind,
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
      dialect: kind,
      peakRssMB: Math.round(peakRss / 1048576),
      publisherPeakRssMB: Math.round(publisherPeakRss / 1048576),
      note: 'server process alone; MQTT publishers in a child process over TCP',
    }),
  );
};

if (!args.includes('--pg-only')) await run('sqlite');
if (pgUrl) await run('postgres');
