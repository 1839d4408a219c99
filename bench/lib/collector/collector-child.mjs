// The collector of bench/collector-poll.mjs, in a process of its own: apps/collector as compiled,
// configured through `parseConfig` and started on a state file that already names every fake miner
// (so the bench measures polling, not discovery; its one scan entry is a closed port). Each poll
// cycle is timed from outside: the instance's `pollCycle` and its CGMiner protocol's `poll` are
// wrapped, nothing in the collector is changed. Each cycle's window runs from its start to the next
// cycle's start (the interval, or longer when a cycle overruns it); in it are measured this
// process's CPU, its peak RSS and the machine's busy CPU. The cycle after the last is not run.
// ← start { brokerPort, miners: [{ sn, port, family }], intervalS, cycles, concurrency }
// → ready; → cycle { index, startedAt, durationMs } as each ends; → done { cycles: […], warnings }.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Collector, parseConfig } from '../../../apps/collector/dist/index.js';
import { cpuMicros } from './child.mjs';

/** Busy CPU time of the whole machine so far (ms, all cores). */
const machineBusyMs = () =>
  cpus().reduce((sum, { times }) => sum + times.user + times.nice + times.sys + times.irq, 0);

/** A port of 127.0.0.1 nothing listens on (for the one scan entry the config needs). */
const closedPort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** The state file a collector that had scanned the site would have written. */
const seedState = (dir, miners) => {
  const now = Date.now();
  const known = miners.map((m) => ({
    sn: m.sn,
    host: '127.0.0.1',
    port: m.port,
    protocol: 'cgminer',
    family: m.family,
    brand: '',
    model: '',
    firmware: '',
    worker: '',
    pool: '',
    pool_address: '',
    firstSeen: now,
    lastSeen: now,
    vanished: false,
    displaced: false,
  }));
  writeFileSync(join(dir, 'miners.json'), JSON.stringify({ version: 1, miners: known }));
};

const run = async ({ brokerPort, miners, intervalS, cycles, concurrency }) => {
  const stateDir = mkdtempSync(join(tmpdir(), 'fbox-bench-collector-'));
  seedState(stateDir, miners);
  const config = parseConfig(
    {
      cloud: { mqtt_url: `mqtt://127.0.0.1:${brokerPort}`, device_id: 'bench-collector' },
      scan: [{ range: '127.0.0.1', port: await closedPort() }],
      poll_interval_s: intervalS,
      scan_interval_s: 86_400,
      ...(concurrency !== undefined && { concurrency: { poll: concurrency } }),
      state_dir: stateDir,
      log_level: 'silent',
    },
    'bench',
  );
  const warnings = { count: 0, first: [] };
  const note = (level) => (obj, msg) => {
    warnings.count++;
    if (warnings.first.length < 3) warnings.first.push(`${level} ${msg} ${JSON.stringify(obj)}`);
  };
  const noop = () => {};
  const logger = { debug: noop, info: noop, warn: note('warn'), error: note('error') };
  const collector = new Collector({ config, logger });

  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  const rssAtStart = process.memoryUsage().rss;

  // Successful reads of the cycle under way, and those that ended by its start + the interval.
  let current = null;
  const protocol = collector.protocols.find((p) => p.name === 'cgminer');
  const poll = protocol.poll.bind(protocol);
  protocol.poll = async (endpoint, known) => {
    const identified = await poll(endpoint, known);
    if (current) {
      current.answered++;
      if (Date.now() <= current.deadline) current.withinInterval++;
    }
    return identified;
  };

  const done = [];
  let finish;
  const finished = new Promise((resolve) => (finish = resolve));
  const mark = () => ({ at: Date.now(), cpu: cpuMicros(), machine: machineBusyMs() });
  const closeWindow = (end) => {
    const cycle = done.at(-1);
    if (!cycle || cycle.window) return;
    const { start } = cycle;
    cycle.window = {
      ms: end.at - start.at,
      cpuMs: (end.cpu - start.cpu) / 1000,
      cores: (end.cpu - start.cpu) / 1000 / (end.at - start.at),
      machineCores: (end.machine - start.machine) / (end.at - start.at),
      peakRss,
    };
  };
  const pollCycle = collector.pollCycle.bind(collector);
  collector.pollCycle = async () => {
    const start = mark();
    closeWindow(start);
    if (done.length === cycles) {
      finish();
      return { polled: 0, online: 0, offline: 0, durationMs: 0, messages: 0 };
    }
    peakRss = process.memoryUsage().rss;
    current = { start, deadline: start.at + intervalS * 1000, answered: 0, withinInterval: 0 };
    const result = await pollCycle();
    const cycle = { ...current, index: done.length + 1, durationMs: Date.now() - start.at, result };
    current = null;
    done.push(cycle);
    process.send({ type: 'cycle', index: cycle.index, startedAt: start.at, durationMs: cycle.durationMs });
    return result;
  };

  await collector.start();
  process.send({ type: 'ready', rssAtStart });
  await finished;
  clearInterval(sampler);
  await collector.stop();
  rmSync(stateDir, { recursive: true, force: true });
  return {
    type: 'done',
    rssAtStart,
    warnings,
    cycles: done.map((c) => ({
      index: c.index,
      startedAt: c.start.at,
      durationMs: c.durationMs,
      collectorDurationMs: c.result.durationMs,
      polled: c.result.polled,
      online: c.result.online,
      messages: c.result.messages,
      answered: c.answered,
      withinInterval: c.withinInterval,
      ...c.window,
    })),
  };
};

process.once('message', (message) =>
  run(message).then(
    (reply) => process.send(reply, () => process.exit(0)),
    (error) => process.send({ type: 'error', message: String(error?.stack ?? error) }, () => process.exit(1)),
  ),
);
