// One run of the alert-rule ingest bench (bench/ingest-rules.mjs), in a process of its own: the
// whole ingest path (MQTT → decode → store) of a 10,000-miner mine, with no alert rules or with 20
// active rules. Timed until every sample is stored AND every rule evaluated. Prints one JSON line:
// { mode, samples, ms, samplesPerSecond, openAlerts }.
import { defaultAlertRules } from '@fbox/contracts';
import { startIngestBench } from './ingest-setup.mjs';

const mode = process.argv[2];
if (mode !== 'none' && mode !== 'rules') throw new Error('usage: ingest-rules-child.mjs none|rules');
const boxes = Number(process.env.BENCH_BOXES ?? 20);
const minersPerBox = Number(process.env.BENCH_MINERS_PER_BOX ?? 500);
const rounds = Number(process.env.BENCH_ROUNDS ?? 15);
const activeRules = 20;

/**
 * The mine's rules: none, or the defaults topped up to 20 with more miner rules (critical chip
 * temperature, major hashrate loss) at thresholds the publisher's healthy miners stay clear of.
 */
const prepare = async (app, area) => {
  await app.db.deleteFrom('alert_rules').where('area_id', '=', area.id).execute();
  if (mode === 'none') return;
  const extra = [
    { metric: 'chip_temp_high', level: 1, threshold: 100, sustain_seconds: 0, hysteresis: 1 },
    { metric: 'hashrate_low_pct', level: 2, threshold: 50, sustain_seconds: 0, hysteresis: 1 },
  ];
  const rules = [...defaultAlertRules];
  for (let i = 0; rules.length < activeRules; i++)
    rules.push({ threshold_max: null, enabled: true, ...extra[i % extra.length] });
  const now = Date.now();
  await app.db
    .insertInto('alert_rules')
    .values(
      rules.slice(0, activeRules).map((r) => ({
        area_id: area.id,
        metric: r.metric,
        level: r.level,
        threshold: r.threshold,
        threshold_max: r.threshold_max,
        sustain_seconds: r.sustain_seconds,
        hysteresis: r.hysteresis,
        enabled: 1,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
};

const { app, publishRounds, waitSamples, stop } = await startIngestBench({ boxes, minersPerBox, prepare });

// Warm-up (creates the miners and tanks); not timed.
await publishRounds(1, 1);
await waitSamples(boxes * minersPerBox);
await app.ingest.drain();
await app.alarms.settled();
const before = app.ingest.stats().samples;

const t0 = performance.now();
await publishRounds(2, rounds);
await waitSamples(before + boxes * minersPerBox * rounds);
await app.ingest.drain();
await app.alarms.settled();
const ms = performance.now() - t0;
const open = await app.db
  .selectFrom('alerts')
  .select((eb) => eb.fn.countAll().as('n'))
  .where('ended_at', 'is', null)
  .executeTakeFirstOrThrow();
await stop();

const samples = boxes * minersPerBox * rounds;
console.log(
  JSON.stringify({
    mode,
    samples,
    ms: Math.round(ms),
    samplesPerSecond: Math.round((samples / ms) * 1000),
    openAlerts: Number(open.n),
  }),
);
