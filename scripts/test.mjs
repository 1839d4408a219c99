// `npm test`: lint, the i18n check, the typecheck and builds, and every suite.
//
// The suites other than end-to-end need no build: Vitest runs the sources, and the server
// processes some tests start (tsx) import only the shared packages from their builds. So those
// packages are built first; then the rest of `check-and-build` (the typecheck of every project, the
// server's and the web console's builds, which end-to-end runs) goes beside the suites at the
// lowest CPU priority. The suites kept two cores busy about 62 % of the time; the build
// takes what they leave. The end-to-end suite follows once both are done. One after the other, the
// build added about 100 s to a run on a 2-core machine.
//
// `npm test -- <vitest filters>` runs the checks and the build, then `vitest run` with the filters.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const filters = process.argv.slice(2);

/**
 * Runs a command in the repository; resolves with its exit code and, with `capture`, what it wrote
 * (otherwise its output goes straight to ours).
 */
const run = (command, args, { capture = false } = {}) =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, {
      cwd: root,
      stdio: ['ignore', capture ? 'pipe' : 'inherit', capture ? 'pipe' : 'inherit'],
    });
    let output = '';
    const keep = (chunk) => {
      output += chunk;
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.on('error', (error) => {
      output += `${error.message}\n`;
    });
    child.on('close', (code) => {
      resolve({ code: code ?? 1, output, seconds: Math.round((Date.now() - started) / 1000) });
    });
  });

/** Runs one step; exits with its code when it fails. */
const orExit = async (command, args) => {
  const { code } = await run(command, args);
  if (code !== 0) process.exit(code);
};

await orExit('npx', ['biome', 'check', '.']);
await orExit('node', ['scripts/check-i18n.mjs']);

if (filters.length > 0) {
  await orExit('node', ['scripts/check-and-build.mjs']);
  process.exit((await run('npx', ['vitest', 'run', ...filters])).code);
}

// What the suites' server processes import from the builds (package.json `exports`).
await orExit('npx', ['tsc', '-b', 'packages/contracts', 'apps/simulator', 'apps/collector']);
// The build takes the CPU only when the suites leave it idle.
const [command, ...args] = [
  ...(existsSync('/usr/bin/nice') ? ['/usr/bin/nice', '-n', '19'] : []),
  'node',
  'scripts/check-and-build.mjs',
];
const [build, suites] = await Promise.all([
  run(command, args, { capture: true }),
  run('npx', ['vitest', 'run', '--project', '!e2e']),
]);
process.stdout.write(
  `\n== typecheck and build (beside the suites): ${build.code === 0 ? 'ok' : 'FAILED'}, ${build.seconds} s\n${build.output.trimEnd()}\n\n`,
);
if (build.code !== 0) process.exit(build.code);
const e2e = await run('npx', ['vitest', 'run', '--project', 'e2e']);
process.stdout.write(
  `\n== suites: ${suites.code === 0 ? 'passed' : 'FAILED'} in ${suites.seconds} s; end-to-end: ${e2e.code === 0 ? 'passed' : 'FAILED'} in ${e2e.seconds} s\n`,
);
process.exit(suites.code !== 0 ? suites.code : e2e.code);
