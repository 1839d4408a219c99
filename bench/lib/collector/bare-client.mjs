// The baseline of bench/collector-poll.mjs, in a process of its own: the raw cost of reading every
// fake miner once. For each miner a TCP connection, the same request the collector sends it once it
// knows the miner's family (`version+summary+stats+pools`, Avalons `…+devs`), the answer read to its
// NUL or the end, then the socket closed; at most `concurrency` at once. No parsing, no report.
// Answers `round { miners, concurrency }` with `{ wallMs, cpu (µs), ok, failed, bytes }`.
import { connect } from 'node:net';
import { pollCommands } from '../../../apps/collector/dist/cgminer/identify.js';
import { cpuMicros, serveRequests } from './child.mjs';

const requestOf = (family) => JSON.stringify({ command: pollCommands[family].join('+') });

/** One request; resolves with the bytes of the answer (0 when it failed). */
const read = (port, request) =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let bytes = 0;
    let done = false;
    const finish = (ok) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(ok ? bytes : 0);
    };
    const timer = setTimeout(() => finish(false), 5000);
    socket.on('connect', () => socket.write(request));
    socket.on('data', (chunk) => {
      const nul = chunk.indexOf(0);
      bytes += nul >= 0 ? nul : chunk.length;
      if (nul >= 0) finish(true);
    });
    socket.on('end', () => finish(bytes > 0));
    socket.on('close', () => finish(bytes > 0));
    socket.on('error', () => finish(false));
  });

serveRequests(async (message) => {
  if (message.type !== 'round') throw new Error(`unknown request ${message.type}`);
  const { miners, concurrency } = message;
  const requests = miners.map((m) => requestOf(m.family));
  const cpu = cpuMicros();
  const started = performance.now();
  let next = 0;
  let ok = 0;
  let bytes = 0;
  const worker = async () => {
    while (next < miners.length) {
      const i = next++;
      const n = await read(miners[i].port, requests[i]);
      if (n > 0) ok++;
      bytes += n;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, miners.length) }, worker));
  return {
    wallMs: performance.now() - started,
    cpu: cpuMicros() - cpu,
    ok,
    failed: miners.length - ok,
    bytes,
  };
});
process.on('disconnect', () => process.exit(0));
process.send({ type: 'ready' });
