// A forked bench part with IPC: `ask(message)` answers the child's reply to that message (matched by
// id), `on(type, handler)` receives what the child pushes unasked, `first` its first message. A child
// answers `{ id, error }` to fail a request; its exit fails every request still waiting.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const forkChild = (script, args = []) => {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), args, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let next = 0;
  const waiting = new Map();
  const handlers = new Map();
  const first = new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}) before it was ready`)));
  });
  first.catch(() => {});
  child.on('message', (message) => {
    const settle = waiting.get(message.id);
    if (settle) {
      waiting.delete(message.id);
      settle(message);
    } else handlers.get(message.type)?.(message);
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.once('exit', (code) => {
    for (const settle of waiting.values()) settle({ error: `${script} exited (${code})` });
    waiting.clear();
  });
  const ask = (message) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      waiting.set(id, (reply) => (reply.error ? reject(new Error(reply.error)) : resolve(reply)));
      child.send({ ...message, id });
    });
  return {
    child,
    first,
    ask,
    exited,
    on: (type, handler) => handlers.set(type, handler),
    /** Closes the IPC channel (the child ends itself) and waits for the exit, killing it after `graceMs`. */
    close: async (graceMs = 5000) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (child.connected) child.disconnect();
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
};

/** In a child: answers each request with `handle(message)`'s result (or its error). */
export const serveRequests = (handle) =>
  process.on('message', (message) => {
    if (message.id === undefined) return;
    Promise.resolve()
      .then(() => handle(message))
      .then(
        (reply) => process.send({ ...reply, id: message.id }),
        (error) => process.send({ id: message.id, error: String(error?.stack ?? error) }),
      );
  });

/** Own CPU so far, µs (user + system). */
export const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
