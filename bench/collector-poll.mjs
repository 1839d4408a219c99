// Site collector polling (issue: "one collector polling 5,000 fake miners every 30 s"): the
// compiled apps/collector, in a process of its own, reads 5,000 fake CGMiner miners (apps/collector's
// own fake, several fake servers in processes of their own, one port of 127.0.0.1 per miner) every
// interval and reports them to an aedes broker (a process of its own that counts the telemetry and
// the miners in it). The collector starts on a state file naming every miner, so this measures
// polling, not discovery. Per cycle: its duration, the reads that ended within the interval, the
// collector's CPU over the interval (as cores), its peak RSS, and what the broker received.
// Baseline in the same run: the same 5,000 reads as bare TCP round trips (connect, the same request,
// read to the end; no parsing, no report) from a minimal client in a process of its own, run in the
// idle part of each interval, so collector CPU / bare CPU is the collector's own overhead.
// Target: all 5,000 read within the 30 s interval, on at most one core. Prints one JSON line.
// Run after `npm run build` (or `npx tsc -b apps/collector`). Flags: --miners 5000, --interval 30
// (seconds, 5–60), --cycles 5 (the first also identifies each miner: two requests each),
// --concurrency (the collector's `concurrency.poll`; default its own, 200), --servers (fake-miner
// processes; default 4, more when the open-file limit needs it).
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { forkChild } from './lib/collector/child.mjs';

const { values: flags } = parseArgs({
  options: {
    miners: { type: 'string', default: '5000' },
    interval: { type: 'string', default: '30' },
    cycles: { type: 'string', default: '5' },
    concurrency: { type: 'string' },
    servers: { type: 'string' },
  },
});
const minersTotal = Number(flags.miners);
const intervalS = Number(flags.interval);
const cyclesWanted = Number(flags.cycles);
const concurrency = flags.concurrency === undefined ? undefined : Number(flags.concurrency);
/** The collector's default `concurrency.poll`; the baseline reads as many at once. */
const readsAtOnce = concurrency ?? 200;
const targetCores = 1;

/**
 * Open files each process may hold (soft limit). A fake server holds one listening socket per miner
 * plus the connections being answered (at most the collector's concurrency), and node's own few.
 */
const openFileLimit = () => {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    return soft === 'unlimited' ? Number.POSITIVE_INFINITY : Number(soft) || 1024;
  } catch {
    return 1024;
  }
};
const fdLimit = openFileLimit();
const fdOverhead = readsAtOnce + 64;
const servers = Math.max(
  Number(flags.servers ?? 4),
  Math.ceil(minersTotal / Math.max(1, fdLimit - fdOverhead)),
);
const perServer = Math.ceil(minersTotal / servers);
if (perServer + fdOverhead > fdLimit)
  throw new Error(`ulimit -n ${fdLimit} is too low for ${perServer} miners per fake server`);

const round = (v, digits = 3) => Math.round(v * 10 ** digits) / 10 ** digits;
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return Number.isInteger(middle) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[Math.floor(middle)];
};
const mb = (bytes) => Math.round(bytes / 1048576);

const parts = [];
const start = (script) => {
  const part = forkChild(script);
  parts.push(part);
  return part;
};
// A bench that hangs is a failed bench: every part is stopped after this long.
const watchdog = setTimeout(
  () => {
    console.error('collector-poll: no result in time; stopping');
    for (const part of parts) part.child.kill('SIGKILL');
    process.exit(1);
  },
  (cyclesWanted + 2) * intervalS * 3000 + 180_000,
);

try {
  // The fake miners.
  const fakeServers = Array.from({ length: servers }, () => start('./fake-miners.mjs'));
  await Promise.all(fakeServers.map((s) => s.first));
  const miners = (
    await Promise.all(
      fakeServers.map((s, i) =>
        s.ask({
          type: 'start',
          from: i * perServer,
          count: Math.min(perServer, minersTotal - i * perServer),
        }),
      ),
    )
  ).flatMap((r) => r.miners);

  // The broker, counting telemetry as it arrives.
  const broker = start('./broker.mjs');
  const { port: brokerPort } = await broker.first;
  const telemetry = [];
  broker.on('telemetry', (message) => telemetry.push(message));

  // The baseline client, run in the idle part of an interval: right after a cycle that ended in the
  // first half of its interval (one at a time); the rounds still owed run after the collector stops.
  const bare = start('./bare-client.mjs');
  await bare.first;
  const bareRounds = [];
  let bareRunning = null;
  const bareRound = async (interleaved) => {
    const r = await bare.ask({ type: 'round', miners, concurrency: readsAtOnce });
    bareRounds.push({ ...r, interleaved });
  };

  // The collector.
  const collector = start('./collector-child.mjs');
  const finished = new Promise((resolve, reject) => {
    collector.on('done', resolve);
    collector.on('error', (m) => reject(new Error(`collector: ${m.message}`)));
    collector.exited.then((code) => reject(new Error(`collector exited (${code})`)));
  });
  collector.on('cycle', ({ durationMs }) => {
    if (bareRunning || durationMs > (intervalS * 1000) / 2 || bareRounds.length >= cyclesWanted) return;
    bareRunning = bareRound(true).finally(() => (bareRunning = null));
  });
  const loadAtStart = loadavg().map((l) => round(l, 2));
  collector.child.send({ brokerPort, miners, intervalS, cycles: cyclesWanted, concurrency });
  const { rssAtStart } = await collector.first;
  const result = await finished;
  await bareRunning;
  while (bareRounds.length < cyclesWanted) await bareRound(false);
  const loadAtEnd = loadavg().map((l) => round(l, 2));

  // Each cycle's telemetry: what the broker received from its start to the next cycle's start.
  const cycles = result.cycles.map((c) => {
    const received = telemetry.filter((t) => t.at >= c.startedAt && t.at < c.startedAt + c.ms);
    return {
      cycle: c.index,
      durationMs: c.durationMs,
      withinInterval: c.durationMs <= intervalS * 1000,
      readsOk: c.answered,
      readsWithinInterval: c.withinInterval,
      shareWithinInterval: round(c.withinInterval / minersTotal, 4),
      cpuMs: Math.round(c.cpuMs),
      cores: round(c.cores),
      machineCores: round(c.machineCores, 2),
      peakRssMB: mb(c.peakRss),
      brokerMessages: received.length,
      brokerMiners: received.reduce((n, t) => n + t.miners, 0),
      brokerOnline: received.reduce((n, t) => n + t.online, 0),
      reportKB: Math.round(received.reduce((n, t) => n + t.bytes, 0) / 1024),
    };
  });
  // The first cycle also asks each miner its family (two requests each), the bare client's first
  // round warms it up: the steady figures and the ratio come from the later ones where there are.
  const steady = cycles.length > 1 ? cycles.slice(1) : cycles;
  const steadyBare = bareRounds.length > 1 ? bareRounds.slice(1) : bareRounds;
  const collectorCpuMs = median(steady.map((c) => c.cpuMs));
  const bareCpuMs = median(steadyBare.map((r) => r.cpu / 1000));
  const allPolledWithinInterval = cycles.every(
    (c) =>
      c.withinInterval &&
      c.readsWithinInterval === minersTotal &&
      c.brokerMiners === minersTotal &&
      c.brokerOnline === minersTotal,
  );
  const cpuAtMostOneCore = cycles.every((c) => c.cores <= targetCores);
  const pass = allPolledWithinInterval && cpuAtMostOneCore;
  console.log(
    JSON.stringify({
      bench: 'collector.poll',
      miners: minersTotal,
      interval_s: intervalS,
      cycles: cycles.length,
      concurrency: readsAtOnce,
      fakeServers: servers,
      minersPerFakeServer: perServer,
      openFileLimit: fdLimit,
      seeded: 'state file naming every miner (polling measured, not scanning)',
      perCycle: cycles,
      durationMs: {
        median: Math.round(median(steady.map((c) => c.durationMs))),
        max: Math.max(...cycles.map((c) => c.durationMs)),
      },
      shareWithinInterval: Math.min(...cycles.map((c) => c.shareWithinInterval)),
      cores: {
        median: round(median(steady.map((c) => c.cores))),
        max: Math.max(...cycles.map((c) => c.cores)),
      },
      cpuUsPerMiner: Math.round((collectorCpuMs * 1000) / minersTotal),
      peakRssMB: Math.max(...cycles.map((c) => c.peakRssMB)),
      rssAtStartMB: mb(rssAtStart),
      baseline: {
        what: 'bare TCP connect + same request + read to end, same concurrency, own process',
        rounds: bareRounds.length,
        interleaved: bareRounds.filter((r) => r.interleaved).length,
        failed: bareRounds.reduce((n, r) => n + r.failed, 0),
        wallMs: Math.round(median(steadyBare.map((r) => r.wallMs))),
        cpuMs: Math.round(bareCpuMs),
        cores: round(bareCpuMs / (intervalS * 1000)),
        cpuUsPerMiner: Math.round((bareCpuMs * 1000) / minersTotal),
      },
      ratio_cpu: round(collectorCpuMs / bareCpuMs, 2),
      target: { miners: minersTotal, interval_s: intervalS, cores: targetCores },
      checks: { allPolledWithinInterval, cpuAtMostOneCore },
      collectorWarnings: result.warnings.count,
      machine: { cpus: cpus().length, loadavg_start: loadAtStart, loadavg_end: loadAtEnd },
      pass,
    }),
  );
  if (result.warnings.count) console.error('collector warnings:', result.warnings.first.join('\n'));
  if (!pass) process.exitCode = 1;
} finally {
  clearTimeout(watchdog);
  await Promise.all(parts.map((part) => part.close()));
}
