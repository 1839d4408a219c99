import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The simulator's fault CLI (`fault <name|clear|list> …`) against the demo's simulator, found by
 * the embedded broker's port of the server under test; resolves with what it printed.
 */
export const simulatorFault = (mqttPort: number, ...args: string[]) =>
  run(
    process.execPath,
    ['apps/simulator/dist/cli.js', 'fault', ...args, '--broker', `mqtt://127.0.0.1:${mqttPort}`],
    { cwd: new URL('../..', import.meta.url) },
  );
