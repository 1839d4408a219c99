// The load client in a process of its own: on each request from its parent (IPC), issues `count`
// GETs cycling through `urls` with `concurrency` parallel workers and answers their latencies (ms);
// or, given `perSecond` and `seconds`, paces them open-loop (see `pace`).
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

/**
 * Open loop: `perSecond` GETs a second for `seconds`, cycling through `urls`, each sent on schedule
 * whether or not the earlier ones were answered (a slow server cannot slow the schedule down and
 * hide its queue). Answers each URL's latencies (ms) and failures (what went wrong, per request).
 */
const pace = async ({ urls, headers, perSecond, seconds }) => {
  const latencies = urls.map(() => []);
  const failures = urls.map(() => []);
  const pending = [];
  const t0 = performance.now();
  for (let i = 0; i < perSecond * seconds; i++) {
    const wait = t0 + (i * 1000) / perSecond - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const k = i % urls.length;
    const started = performance.now();
    pending.push(
      fetch(urls[k], { headers })
        .then(async (res) => {
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
          latencies[k].push(performance.now() - started);
        })
        .catch((error) => failures[k].push(String(error.cause ?? error))),
    );
  }
  await Promise.all(pending);
  return { latencies, failures };
};

process.on('message', (message) =>
  (message.perSecond ? pace(message) : measure(message).then((latencies) => ({ latencies }))).then(
    (answer) => process.send({ id: message.id, ...answer }),
    (error) => process.send({ id: message.id, error: String(error) }),
  ),
);
process.on('disconnect', () => process.exit(0));
