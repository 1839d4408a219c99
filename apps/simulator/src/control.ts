import { chmod, unlink } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { Logger } from './logger.js';
import { FAULT_NAMES, FaultError, type FaultInfo } from './model/faults.js';
import type { SimulatorFaultRequest } from './simulator.js';

/**
 * The control socket of a running simulator: HTTP over a Unix socket, so the CLI (`fault …`) and
 * people (`curl --unix-socket`) can inject and clear faults in a simulator running in another
 * process — the server's demo mine included — without touching the MQTT broker.
 *
 * - `GET /faults` → `{ faults: FaultInfo[] }`
 * - `POST /faults` `{ name, fbox?, tank?, fan?, pump?, phase?, meter?, miner?, duration_s? }` → `{ fault }`
 * - `DELETE /faults?name=&fbox=` → `{ cleared: FaultInfo[] }`
 * Errors answer 400/404 with `{ error }`.
 */

/** What the control socket drives: the simulator's fault API. */
export interface FaultControl {
  injectFault(request: SimulatorFaultRequest): FaultInfo;
  clearFault(match?: { name?: (typeof FAULT_NAMES)[number]; fbox?: string }): FaultInfo[];
  faults(): FaultInfo[];
}

/**
 * Where a simulator on `brokerUrl` listens by default: one socket per broker address in the temp
 * directory, so `fault` with the same `--broker` (or `$MQTT_URL`) finds the simulator on it.
 */
export const defaultControlPath = (brokerUrl: string): string => {
  let where = brokerUrl;
  try {
    const url = new URL(brokerUrl);
    const port = url.port || (url.protocol === 'mqtts:' ? '8883' : '1883');
    where = `${url.hostname}-${port}`;
  } catch {
    // An unparsable URL still names a socket of its own.
  }
  return join(tmpdir(), `fbox-simulator-${where.replace(/[^A-Za-z0-9.-]/g, '_').slice(0, 60)}.sock`);
};

const count = z.number().int().min(1).max(64);
const FaultBodySchema = z
  .object({
    name: z.enum(FAULT_NAMES),
    fbox: z.string().min(1).max(64).optional(),
    tank: count.optional(),
    fan: count.optional(),
    pump: count.optional(),
    phase: z.number().int().min(1).max(3).optional(),
    meter: z.number().int().min(1).max(2).optional(),
    miner: z.string().min(1).max(64).optional(),
    duration_s: z
      .number()
      .positive()
      .max(7 * 86_400)
      .optional(),
  })
  .strict();

const send = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(`${JSON.stringify(body)}\n`);
};

const readBody = async (req: IncomingMessage): Promise<unknown> => {
  let text = '';
  for await (const chunk of req) {
    text += chunk;
    if (text.length > 10_000) throw new FaultError('body too large');
  }
  try {
    return JSON.parse(text || '{}');
  } catch {
    throw new FaultError('body is not JSON');
  }
};

const handle = async (control: FaultControl, req: IncomingMessage, res: ServerResponse): Promise<void> => {
  const url = new URL(req.url ?? '/', 'http://simulator');
  if (url.pathname !== '/faults') return send(res, 404, { error: 'not found: use /faults' });
  try {
    if (req.method === 'GET') return send(res, 200, { faults: control.faults() });
    if (req.method === 'POST') {
      const parsed = FaultBodySchema.safeParse(await readBody(req));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return send(res, 400, { error: `${issue?.path.join('.') || 'body'}: ${issue?.message}` });
      }
      const { duration_s, ...request } = parsed.data;
      const fault = control.injectFault({
        ...request,
        ...(duration_s !== undefined ? { durationMs: Math.round(duration_s * 1000) } : {}),
      });
      return send(res, 200, { fault });
    }
    if (req.method === 'DELETE') {
      const name = url.searchParams.get('name') || undefined;
      if (name !== undefined && !(FAULT_NAMES as readonly string[]).includes(name))
        return send(res, 400, { error: `unknown fault "${name}"` });
      const fbox = url.searchParams.get('fbox') || undefined;
      const cleared = control.clearFault({
        ...(name ? { name: name as (typeof FAULT_NAMES)[number] } : {}),
        ...(fbox ? { fbox } : {}),
      });
      return send(res, 200, { cleared });
    }
    return send(res, 405, { error: 'use GET, POST or DELETE' });
  } catch (error) {
    if (error instanceof FaultError) return send(res, 400, { error: error.message });
    throw error;
  }
};

/** Whether something answers on the socket (a live simulator) or it is a stale file. */
const answers = (path: string): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

const listen = (server: Server, path: string): Promise<void> =>
  new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });

/**
 * Listens on `path` (a stale socket file of a dead simulator is replaced; one in use is left alone
 * and null returned, with a warning). Only the same OS user may connect (mode 0600).
 */
export const startControlServer = async (
  control: FaultControl,
  path: string,
  log: Logger,
): Promise<{ path: string; close(): Promise<void> } | null> => {
  const server = createServer((req, res) => {
    handle(control, req, res).catch((error: unknown) => {
      log.error({ err: error }, 'control request failed');
      if (!res.headersSent) send(res, 500, { error: 'internal error' });
    });
  });
  try {
    await listen(server, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || (await answers(path))) {
      log.warn({ path, err: error }, 'fault control socket not opened (in use by another simulator?)');
      return null;
    }
    await unlink(path).catch(() => undefined);
    await listen(server, path);
  }
  await chmod(path, 0o600).catch(() => undefined);
  server.unref();
  log.info({ path }, 'fault control socket listening');
  return {
    path,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};
