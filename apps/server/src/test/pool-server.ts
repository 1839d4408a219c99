import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import { PoolError } from '../modules/pool/adapters/pool-adapter.js';

/**
 * A local pool API for an adapter test: starts `handle` on a free loopback port before the suite and
 * stops it after; `url()` is its address once started.
 */
export const usePoolServer = (handle: (req: IncomingMessage, res: ServerResponse) => unknown) => {
  let server: Server;
  let url = '';
  beforeAll(async () => {
    server = createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: () => url };
};

/** The pool error a call fails with (the test fails if it succeeds), checked to hold none of `secrets`. */
export const poolFailure = async (call: Promise<unknown>, secrets: readonly string[]): Promise<PoolError> => {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PoolError);
  const poolError = error as PoolError;
  for (const secret of secrets) expect(poolError.message).not.toContain(secret);
  return poolError;
};
