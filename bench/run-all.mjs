// Runs every benchmark in this folder in turn (each prints its JSON lines); fails when one fails.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
let failed = 0;
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.mjs') && f !== 'run-all.mjs')
  .sort()) {
  // The servers the benches start run in their processes, with the allocator setting `npm start`
  // gives the server (docs/operations.md, "Memory").
  const result = spawnSync(process.execPath, ['--expose-gc', `${dir}${file}`], {
    stdio: 'inherit',
    env: { MALLOC_MMAP_THRESHOLD_: '131072', ...process.env },
  });
  if (result.status !== 0) failed++;
}
process.exit(failed > 0 ? 1 : 0);
