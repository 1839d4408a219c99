// The cloud's broker for bench/collector-poll.mjs, in a process of its own: an aedes broker on a free
// port of 127.0.0.1 that takes any client, and counts what arrives on `fbox/<id>/telemetry`. Pushes
// `{ type: 'telemetry', at, seq, miners, online, bytes }` for each telemetry message; answers `cpu`.
import { createServer } from 'node:net';
import { Aedes } from 'aedes';
import { cpuMicros, serveRequests } from './child.mjs';

const telemetryTopic = /^fbox\/[^/]+\/telemetry$/;

const broker = await Aedes.createBroker();
broker.on('publish', (packet, client) => {
  if (!client || !telemetryTopic.test(packet.topic)) return;
  const at = Date.now();
  let report;
  try {
    report = JSON.parse(packet.payload.toString('utf8'));
  } catch {
    process.send({ type: 'telemetry', at, seq: null, miners: 0, online: 0, bytes: packet.payload.length });
    return;
  }
  const miners = Array.isArray(report.miners) ? report.miners : [];
  process.send({
    type: 'telemetry',
    at,
    seq: report.seq,
    miners: miners.length,
    online: miners.filter((m) => m.online === true).length,
    bytes: packet.payload.length,
  });
});
const server = createServer(broker.handle);
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));

serveRequests(async (message) => {
  if (message.type === 'cpu') return { cpu: cpuMicros() };
  throw new Error(`unknown request ${message.type}`);
});
process.on('disconnect', () => {
  server.close();
  broker.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
});
process.send({ type: 'ready', port: server.address().port });
