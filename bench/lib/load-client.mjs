// The load client in a process of its own: on each request from its parent (IPC), issues `count`
// GETs cycling through `urls` with `concurrency` parallel workers and answers their latencies (ms).
const measure = async ({ urls, headers, count, concurrency }) => {
  const latencies = [];
  let issued = 0;
  const worker = async () => {
    while (issued < count) {
      const i = issued++;
      const started = performance.now();
      const res = await fetch(urls[i % urls.length], { headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return latencies;
};

process.on('message', (message) =>
  measure(message).then(
    (latencies) => process.send({ id: message.id, latencies }),
    (error) => process.send({ id: message.id, error: String(error) }),
  ),
);
process.on('disconnect', () => process.exit(0));
