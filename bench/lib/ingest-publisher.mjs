// Telemetry generators for bench/ingest.mjs, and its publisher child process: forked by the bench,
// this file connects one MQTT client per gateway to the server's embedded broker over TCP and
// publishes rounds of telemetry on request, so the bench's peak RSS is the server's alone.
// Protocol (IPC messages): ← init {url, minersPerBox, gateways: [{box, deviceId, username, password}]}
// → ready; ← publish {from, count} → published {peakRss}; ← stream {from, samplesPerSecond, seconds,
// drainSeconds} → streamed {published, acked, ackMs, …}; ← end {force} → exits (force: without
// waiting for acknowledgements). Errors → error {message}.
import { fileURLToPath } from 'node:url';
import { connectAsync } from 'mqtt';

export const miner = (box, i, seq) => ({
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
export const message = (box, seq, minersPerBox) =>
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

const runPublisher = () => {
  let minersPerBox = 0;
  let clients = [];
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 25);
  const handle = {
    async init(m) {
      minersPerBox = m.minersPerBox;
      clients = await Promise.all(
        m.gateways.map(async (g) => ({
          ...g,
          // The embedded broker takes a gateway only with its device id as client id.
          client: await connectAsync(m.url, {
            clientId: g.deviceId,
            username: g.username,
            password: g.password,
          }),
        })),
      );
      return { type: 'ready' };
    },
    async publish(m) {
      for (let seq = m.from; seq < m.from + m.count; seq++)
        await Promise.all(
          clients.map((g) =>
            g.client.publishAsync(`fbox/${g.deviceId}/telemetry`, message(g.box, seq, minersPerBox), {
              qos: 1,
            }),
          ),
        );
      return { type: 'published', peakRss };
    },
    /**
     * Open loop: publishes `samplesPerSecond` worth of messages (each `minersPerBox` samples) for
     * `seconds`, on a fixed schedule whatever the acknowledgements do, each gateway in turn with
     * its own sequence from `from`; then waits up to `drainSeconds` for the outstanding
     * acknowledgements (the server sends one after the message's batch commits). Answers how many
     * were published and acknowledged, the acknowledgement latencies, and how far the publisher
     * itself fell behind its schedule.
     */
    async stream(m) {
      const perSecond = m.samplesPerSecond / minersPerBox;
      const seqs = clients.map(() => m.from);
      const ackMs = [];
      const outstanding = new Set();
      let published = 0;
      let behindMs = 0;
      const t0 = performance.now();
      const end = t0 + m.seconds * 1000;
      while (performance.now() < end) {
        const now = performance.now();
        const due = Math.floor(((now - t0) / 1000) * perSecond);
        behindMs = Math.max(
          behindMs,
          due > published + perSecond ? ((due - published) / perSecond) * 1000 : 0,
        );
        for (; published < due; published++) {
          const g = clients[published % clients.length];
          const k = published % clients.length;
          const sent = performance.now();
          const ack = g.client
            .publishAsync(`fbox/${g.deviceId}/telemetry`, message(g.box, seqs[k]++, minersPerBox), { qos: 1 })
            .then(
              () => ackMs.push(performance.now() - sent),
              // Unacknowledged when the bench ends it (`end` with `force`): counted as such.
              () => {},
            )
            .finally(() => outstanding.delete(ack));
          outstanding.add(ack);
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      const publishedMs = performance.now() - t0;
      const drainUntil = performance.now() + m.drainSeconds * 1000;
      while (outstanding.size > 0 && performance.now() < drainUntil)
        await new Promise((r) => setTimeout(r, 50));
      return {
        type: 'streamed',
        published,
        acked: ackMs.length,
        publishedMs,
        drainedMs: performance.now() - t0 - publishedMs,
        behindMs,
        ackMs,
        nextSeq: Math.max(...seqs),
        peakRss,
      };
    },
    async end(m) {
      if (m.force) {
        clearInterval(sampler);
        for (const g of clients) g.client.end(true);
        process.disconnect();
        return;
      }
      clearInterval(sampler);
      await Promise.all(clients.map((g) => g.client.endAsync()));
      process.disconnect();
    },
  };
  process.on('message', (m) =>
    handle[m.type](m).then(
      (reply) => reply && process.send(reply),
      (err) => {
        process.send({ type: 'error', message: String(err?.stack ?? err) });
        process.exit(1);
      },
    ),
  );
};

// Only when forked by the bench (with an IPC channel); importing this file just gets the generators.
if (process.argv[1] === fileURLToPath(import.meta.url) && process.send) runPublisher();
