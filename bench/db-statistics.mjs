// Start-up and hourly maintenance never blocks requests (issue 17, goal 3): the longest the event
// loop is held while SQLite's planner statistics are refreshed (`updateStatistics`: hourly by the
// `db-statistics` job on a thread of its own; at start-up, before the server listens, on its own
// connection for indexes without statistics; `in_process_*`: the refresh without the thread) on a mine of BENCH_MINERS
// miners (default 100,000; 1,000,000 seeds in about two minutes). The baseline, measured in the
// same run on the same database: ANALYZE of each device table as one statement, as before.
// Target: no block longer than 100 ms (the API's p99 budget). Run after `npm run build`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { updateStatistics } from '../apps/server/dist/db/database.js';
import { buildBenchApp } from './lib/bench-app.mjs';
import { longestBlock, round } from './lib/http-latency.mjs';
import { seedMinerArea } from './lib/seed-area.mjs';

const miners = Number(process.env.BENCH_MINERS ?? 100_000);
const targetMs = 100;
const tables = ['miner_info', 'miners', 'tank_state', 'tanks', 'fbox_state', 'fboxes'];

const dir = mkdtempSync(join(tmpdir(), 'fbox-bench-stats-'));
const app = await buildBenchApp({ dir });
try {
  await app.users.create({ username: 'bench', password: 'bench-password', is_master: true });
  await seedMinerArea(app, { username: 'bench', minersTotal: miners, perBox: 500 });
  const baseline = await longestBlock(async () => {
    for (const table of tables) await sql`analyze ${sql.table(table)}`.execute(app.db);
  });
  const inProcess = await longestBlock(() => updateStatistics(app.db, 'sqlite'));
  // As the hourly job runs it: each index analyzed on a thread of its own.
  const thread = { address: app.dbAddress, writeGate: app.dbWriteGate };
  const refresh = await longestBlock(() => updateStatistics(app.db, 'sqlite', { thread }));
  const startup = await longestBlock(() => updateStatistics(app.db, 'sqlite', { onlyMissing: true }));
  console.log(
    JSON.stringify({
      bench: 'db-statistics.longestBlockMs',
      dialect: 'sqlite',
      miners,
      refresh_longest_block_ms: refresh.longest,
      refresh_total_ms: refresh.total,
      in_process_longest_block_ms: inProcess.longest,
      in_process_total_ms: inProcess.total,
      startup_longest_block_ms: startup.longest,
      baseline_longest_block_ms: baseline.longest,
      ratio: round(refresh.longest / baseline.longest),
      target_ms: targetMs,
      pass: refresh.longest <= targetMs && startup.longest <= targetMs,
    }),
  );
} finally {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
}
