import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const serverMain = join(repoRoot, 'apps/server/dist/main.js');
const webDist = join(repoRoot, 'apps/web/dist/index.html');

export const ADMIN_USER = 'admin';
export const ADMIN_PASSWORD = 'e2e-Admin-pass1';

/** A free TCP port on loopback, so tests never collide with Mosquitto (1883) or each other. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });

/**
 * Servers this test process started and has not stopped. A file whose set-up fails after its server
 * started (the browser does not launch) never stops it itself, and a server outliving the run keeps
 * its demo mine busy on the machine's cores: they are ended when this process exits or is told to.
 */
const running = new Set<ChildProcess>();
const endRunning = () => {
  for (const child of running) child.kill('SIGKILL');
};
process.once('exit', endRunning);
process.once('SIGTERM', () => {
  endRunning();
  process.exit(143);
});

export interface RunningServer {
  url: string;
  dataDir: string;
  /** Database file of the server (SQLite), for tests that must age a session. */
  dbFile: string;
  logs: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts the built server (`npm run build` output) as a real process on free ports with its own
 * data folder, and waits until it answers HTTP.
 */
export const startServer = async (env: Record<string, string> = {}): Promise<RunningServer> => {
  if (!existsSync(serverMain) || !existsSync(webDist)) {
    throw new Error('Build first: `npx tsc -b && npm run build -w @fbox/web` (npm test does both)');
  }
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'fbox-e2e-'));
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [serverMain], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      MQTT_URL: '',
      ADMIN_USER,
      ADMIN_PASSWORD,
      DEMO: '1',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${url}/index/fbox.area/index?output=json`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer within 30 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    dataDir,
    dbFile: join(dataDir, 'fbox.db'),
    logs: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};
