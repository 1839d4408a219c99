// Type-checks every project (`tsc -b`, emitting the server's build) and builds the web console, on
// two cores at once: the shared contracts first, then the web chain beside the server chain. One
// `tsc -b` after another took 135 s on a clean 2-core CI machine, most of it on one core.
// Exits non-zero if any step fails; each step's output is printed when it ends. `npm test` runs it
// beside the suites that need no build (scripts/test.mjs).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = (...projects) => ['npx', ['tsc', '-b', ...projects]];

/** Runs one command; resolves with its exit code after printing what it wrote. */
const run = ([command, args]) =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      process.stdout.write(
        `== ${[command, ...args].join(' ')}: ${code === 0 ? 'ok' : `failed (${code})`}, ${seconds} s\n`,
      );
      if (output.trim()) process.stdout.write(`${output.trimEnd()}\n`);
      resolve(code ?? 1);
    });
  });

/** Runs the steps one after another, stopping at the first failure. */
const chain = async (steps) => {
  for (const step of steps) {
    const code = await run(step);
    if (code !== 0) return code;
  }
  return 0;
};

const codes = [await run(tsc('packages/contracts'))];
if (codes[0] === 0) {
  codes.push(
    ...(await Promise.all([
      chain([tsc('apps/web'), ['npm', ['run', 'build', '-w', '@fbox/web']]]),
      // The rest of `tsc -b` (tsconfig.json's references): the server's build is what e2e runs.
      chain([
        tsc('apps/simulator', 'apps/collector', 'apps/server', 'apps/server/tsconfig.test.json', 'e2e'),
      ]),
    ])),
  );
}
process.exit(codes.some((code) => code !== 0) ? 1 : 0);
