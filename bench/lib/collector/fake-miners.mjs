// One fake-miner server of bench/collector-poll.mjs, in a process of its own: `count` fake CGMiner
// miners (apps/collector's own fake, compiled) on 127.0.0.1, one port each, every fourth an Avalon
// and the rest Antminers. Miner `i` has the serial `BENCH-<i>`. Answers `start` with the miners
// (serial, port, family), `cpu` with its CPU so far (µs); stops its miners when the IPC channel closes.
import { startFakeMiner } from '../../../apps/collector/dist/cgminer/fake-miner.js';
import { cpuMicros, serveRequests } from './child.mjs';

/** The flavour of miner `index` of the site. */
const flavorOf = (index) => (index % 4 === 3 ? 'avalon' : 'antminer');
const serialOf = (index) => `BENCH-${String(index).padStart(6, '0')}`;

let fakes = [];

serveRequests(async (message) => {
  if (message.type === 'cpu') return { cpu: cpuMicros() };
  if (message.type !== 'start') throw new Error(`unknown request ${message.type}`);
  const indexes = Array.from({ length: message.count }, (_, i) => message.from + i);
  fakes = await Promise.all(
    indexes.map((index) =>
      startFakeMiner({
        flavor: flavorOf(index),
        id: serialOf(index),
        worker: `bench.${index}`,
        hashrateTh: 100 + (index % 10),
        chipMaxTemp: 65 + (index % 10),
      }),
    ),
  );
  return {
    miners: fakes.map((fake, i) => ({
      sn: serialOf(indexes[i]),
      port: fake.port,
      family: flavorOf(indexes[i]),
    })),
  };
});
process.on('disconnect', async () => {
  await Promise.all(fakes.map((fake) => fake.stop()));
  process.exit(0);
});
process.send({ type: 'ready' });
