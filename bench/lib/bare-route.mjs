// The bare route in a process of its own: a Fastify server answering the body its parent sends
// (IPC), so its cost is measured apart from the real server's and the load client's. Prints its
// address; answers `{ cpu }` (its CPU so far, µs) when asked.
import Fastify from 'fastify';

const bare = Fastify({ logger: false });
let body = '';
bare.get('/bare', (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
const address = await bare.listen({ port: 0, host: '127.0.0.1' });
process.on('message', (message) => {
  if (message.body !== undefined) body = message.body;
  const { user, system } = process.cpuUsage();
  process.send({ id: message.id, cpu: user + system });
});
process.on('disconnect', () => bare.close().then(() => process.exit(0)));
process.send({ address });
