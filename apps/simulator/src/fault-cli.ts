import { existsSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultControlPath } from './control.js';
import { FAULT_DEFAULT_DURATION_MS, FAULT_NAMES } from './model/faults.js';

export const FAULT_USAGE = `Inject or clear a named fault in a running simulator (the server's demo mine or \`npm run simulate\`).

Usage:
  npm run simulate -- fault <name> [--fbox ID] [--tank N] [--fan N] [--pump N] [--phase N]
                                   [--meter N] [--miner SN] [--duration D]
  npm run simulate -- fault clear [<name>] [--fbox ID]
  npm run simulate -- fault list

Faults (default duration): ${FAULT_NAMES.map((n) => `${n} (${FAULT_DEFAULT_DURATION_MS[n] / 1000}s)`).join(', ')}.

  --fbox ID        the FBOX's device id (default: the box of --miner, else the first box it fits)
  --tank N         tank_hot, fan_fail, pump_fault on an immersion box (default 1)
  --fan N          fan_fail: the fan of the tank (default 1)
  --pump N         pump_fault on a hydro box: the loop pump (default 1)
  --phase N        voltage_sag: 1 = A, 2 = B, 3 = C (default 1)
  --meter N        meter_missing: 1 or 2 (default 2)
  --miner SN       hashrate_drop, miner_fault, pool_hijack (default: the box's first running miner)
  --duration D     how long: 300 (seconds), 90s, 5m (default: per fault, above)
  --broker URL     the broker the simulator runs on, which names its control socket (default:
                   $MQTT_URL, else mqtt://127.0.0.1:1883, else the only simulator socket running)
  --control PATH   or the control socket itself

Prints the fault (or the list) as JSON; exits 1 when the simulator refuses it, 2 when none answers.`;

const call = (
  socketPath: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> =>
  new Promise((resolve, reject) => {
    const req = request(
      { socketPath, method, path, headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
          } catch {
            reject(new Error(`unreadable answer from ${socketPath}`));
          }
        });
      },
    );
    req.on('error', (error) =>
      reject(new Error(`no simulator answers on ${socketPath} (${(error as NodeJS.ErrnoException).code})`)),
    );
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });

const seconds = (text: string): number => {
  const match = /^(\d+(?:\.\d+)?)(s|m|h)?$/.exec(text.trim());
  if (!match) throw new Error(`invalid --duration "${text}" (examples: 300, 90s, 5m)`);
  return Number(match[1]) * { s: 1, m: 60, h: 3600 }[(match[2] ?? 's') as 's' | 'm' | 'h'];
};

const int = (name: string, text: string | undefined): number | undefined => {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`);
  return n;
};

/**
 * The socket of the simulator on `brokerUrl`; without one, that of the default broker, or else the
 * only simulator socket there is (a server whose embedded broker moved to a free port).
 */
const controlSocket = (brokerUrl: string | undefined): string => {
  if (brokerUrl) return defaultControlPath(brokerUrl);
  const standard = defaultControlPath('mqtt://127.0.0.1:1883');
  if (existsSync(standard)) return standard;
  const sockets = readdirSync(tmpdir()).filter((name) => /^fbox-simulator-.+\.sock$/.test(name));
  return sockets.length === 1 ? join(tmpdir(), sockets[0]!) : standard;
};

/** `fault …`: talks to the control socket; returns the exit code. */
export const runFaultCommand = async (args: string[]): Promise<number> => {
  const { values, positionals } = parseArgs({
    args,
    options: {
      fbox: { type: 'string' },
      tank: { type: 'string' },
      fan: { type: 'string' },
      pump: { type: 'string' },
      phase: { type: 'string' },
      meter: { type: 'string' },
      miner: { type: 'string' },
      duration: { type: 'string' },
      broker: { type: 'string' },
      control: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: true,
  });
  const [what, name, ...extra] = positionals;
  if (values.help || !what) {
    process.stdout.write(`${FAULT_USAGE}\n`);
    return values.help ? 0 : 1;
  }
  const socket = values.control ?? controlSocket(values.broker ?? process.env.MQTT_URL);
  let answer: { status: number; body: unknown };
  if (what === 'list') {
    answer = await call(socket, 'GET', '/faults');
  } else if (what === 'clear') {
    const query = new URLSearchParams();
    if (name) query.set('name', name);
    if (values.fbox) query.set('fbox', values.fbox);
    answer = await call(socket, 'DELETE', `/faults?${query}`);
  } else {
    if (name !== undefined || extra.length > 0) throw new Error(`unexpected argument "${name ?? extra[0]}"`);
    const body = {
      name: what,
      ...(values.fbox !== undefined ? { fbox: values.fbox } : {}),
      ...(values.miner !== undefined ? { miner: values.miner } : {}),
      ...Object.fromEntries(
        (['tank', 'fan', 'pump', 'phase', 'meter'] as const)
          .map((key) => [key, int(key, values[key])] as const)
          .filter(([, v]) => v !== undefined),
      ),
      ...(values.duration !== undefined ? { duration_s: seconds(values.duration) } : {}),
    };
    answer = await call(socket, 'POST', '/faults', body);
  }
  const out = answer.status === 200 ? process.stdout : process.stderr;
  out.write(`${JSON.stringify(answer.body, null, 2)}\n`);
  return answer.status === 200 ? 0 : 1;
};
