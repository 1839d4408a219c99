// Alert rules on the ingest path (issue 13): miner samples/s through the whole path with 20 active
// alert rules, against the same ingest with none (the baseline), each run in a process of its own,
// alternating, three of each; the medians are compared. Target: ratio ≥ 0.8. Run after `npm run build`.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const child = fileURLToPath(new URL('./lib/ingest-rules-child.mjs', import.meta.url));
const runs = Number(process.env.BENCH_RULE_RUNS ?? 3);
const run = (mode) => JSON.parse(execFileSync(process.execPath, [child, mode], { encoding: 'utf8' }).trim());
const results = { none: [], rules: [] };
for (let i = 0; i < runs; i++) for (const mode of ['none', 'rules']) results[mode].push(run(mode));
const median = (list) => {
  const sorted = list.map((r) => r.samplesPerSecond).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const withRules = median(results.rules);
const baseline = median(results.none);
const ratio = Math.round((withRules / baseline) * 100) / 100;
console.log(
  JSON.stringify({
    bench: 'ingest.withAlertRules',
    dialect: 'sqlite',
    rules: 20,
    samplesPerRun: results.rules[0].samples,
    runs,
    samplesPerSecond: withRules,
    baselineSamplesPerSecond: baseline,
    ratio,
    openAlertsAfter: results.rules.at(-1).openAlerts,
    target: { ratio: 0.8 },
    pass: ratio >= 0.8,
  }),
);
if (ratio < 0.8) process.exitCode = 1;
