// Runs another bench of this folder in a process of its own and answers its JSON lines (printed
// as they come), for the benches that repeat one at several sizes.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Runs `bench/<file>` with these arguments and extra environment; rejects when it fails. */
export const runChildBench = (file, args, env) =>
  new Promise((resolve, reject) => {
    const path = fileURLToPath(new URL(`../${file}`, import.meta.url));
    const child = spawn(process.execPath, [path, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      process.stdout.write(chunk);
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(
            out
              .split('\n')
              .filter((line) => line.startsWith('{'))
              .map((line) => JSON.parse(line)),
          )
        : reject(new Error(`${file} (${JSON.stringify(env)}) exited with ${code}`)),
    );
  });

/** The mine sizes of the growth benches: BENCH_GROWTH_SIZES (comma-separated) or 10k, 100k, 1M. */
export const growthSizes = () =>
  (process.env.BENCH_GROWTH_SIZES ?? '10000,100000,1000000').split(',').map(Number);

/**
 * Prints one growth line per group of rows (each row one size's figures, with `miners` and `pass`):
 * `describe(bySize, smallest, largest)` and whether every size was measured and passed. Answers
 * whether every group passed.
 */
export const reportGrowth = (rows, sizes, keyOf, describe) => {
  let allPass = true;
  for (const key of [...new Set(rows.map(keyOf))]) {
    const bySize = rows.filter((r) => keyOf(r) === key).sort((a, b) => a.miners - b.miners);
    const pass = bySize.length === sizes.length && bySize.every((r) => r.pass);
    allPass &&= pass;
    console.log(JSON.stringify({ ...describe(bySize, bySize[0], bySize.at(-1)), pass }));
  }
  return allPass;
};
