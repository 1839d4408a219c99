// The JavaScript a visitor downloads before /login renders: the entry chunk, the login page chunk,
// the texts of one language and everything they import statically (from Vite's manifest). Prints one JSON object; the baseline is
// the 250 KB gzip budget of DESIGN §10. Exit code 1 when over budget. Run after `npm run build`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = fileURLToPath(new URL('../apps/web/dist/', import.meta.url));
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const seen = new Set();
const walk = (key) => {
  if (!key || seen.has(key)) return;
  seen.add(key);
  for (const imported of manifest[key].imports ?? []) walk(imported);
};
walk(Object.keys(manifest).find((key) => manifest[key].isEntry));
walk(Object.keys(manifest).find((key) => key.endsWith('features/auth/LoginPage.tsx')));
// The texts of one language are fetched before the first render; count the larger of the two.
const languages = Object.keys(manifest).filter((key) => /locales\/bundle-\w+\.ts$/.test(key));
const gz = (key) => gzipSync(readFileSync(join(dist, manifest[key].file))).length;
walk(languages.sort((a, b) => gz(b) - gz(a))[0]);

let rawBytes = 0;
let gzipBytes = 0;
for (const key of seen) {
  const bytes = readFileSync(join(dist, manifest[key].file));
  rawBytes += bytes.length;
  gzipBytes += gzipSync(bytes).length;
}
const budgetBytes = 250 * 1024;
const result = {
  bench: 'web.login.initialJs',
  files: seen.size,
  rawBytes,
  gzipBytes,
  baseline: 'budget',
  baselineBytes: budgetBytes,
  ratio: Number((gzipBytes / budgetBytes).toFixed(3)),
  pass: gzipBytes <= budgetBytes,
};
console.log(JSON.stringify(result));
if (!result.pass) process.exit(1);
