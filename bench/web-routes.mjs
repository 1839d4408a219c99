// What each console route costs a visitor on a fresh load (issue 17, goal 4): the HTML, then every
// JavaScript and CSS file the route needs before it renders, read from Vite's manifest — the entry
// and its static imports, the texts of one language (the larger), the shell and the console texts
// for pages behind sign-in, the page's chunk with its static imports, and ECharts where the page
// draws a chart (its chunk is imported on demand by the chart components, which render at once).
// Bytes are gzip (the server sends the build's precompressed copies); requests count files, not
// API calls. One JSON line per route with pass/fail against ≤ 300 KB gzip and ≤ 30 requests, then
// a summary line. Run after `npm run build`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const web = fileURLToPath(new URL('../apps/web/', import.meta.url));
const dist = join(web, 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const budget = { gzipBytes: 300 * 1024, requests: 30 };
const charts = 'src/components/charts/echarts.ts';

const gzipOf = new Map();
const gz = (file) => {
  if (!gzipOf.has(file)) gzipOf.set(file, gzipSync(readFileSync(join(dist, file))).length);
  return gzipOf.get(file);
};

/** The manifest keys `key` loads statically (itself included). */
const closure = (key, into = new Set()) => {
  if (!key || into.has(key)) return into;
  into.add(key);
  for (const imported of manifest[key]?.imports ?? []) closure(imported, into);
  return into;
};
const find = (suffix) => Object.keys(manifest).find((key) => key.endsWith(suffix));
const larger = (a, b) => (gz(manifest[find(a)].file) >= gz(manifest[find(b)].file) ? find(a) : find(b));

const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
const base = [entry, larger('locales/bundle-en.ts', 'locales/bundle-zh.ts')];
const signedIn = [find('app/ProtectedShell.tsx'), larger('bundle-console-en.ts', 'bundle-console-zh.ts')];

/** Route paths and their page modules, from the features' route tables (`path: …, page: () => import('./X')`). */
const routes = [];
const features = join(web, 'src/features');
for (const feature of readdirSync(features)) {
  let text;
  try {
    text = readFileSync(join(features, feature, 'routes.ts'), 'utf8');
  } catch {
    continue;
  }
  for (const match of text.matchAll(/path: '([^']+)',[\s\S]*?page: \(\) => import\('\.\/([^']+)'\)/g))
    routes.push({ path: match[1], module: `src/features/${feature}/${match[2]}.tsx` });
}

const results = routes.map(({ path, module }) => {
  const keys = new Set();
  for (const key of [...base, ...(path === '/login' ? [] : signedIn), module]) closure(key, keys);
  if ([...keys].some((key) => manifest[key].dynamicImports?.includes(charts))) closure(charts, keys);
  const files = new Set(['index.html']);
  for (const key of keys) {
    files.add(manifest[key].file);
    for (const css of manifest[key].css ?? []) files.add(css);
  }
  const gzipBytes = [...files].reduce((sum, file) => sum + gz(file), 0);
  const result = {
    bench: 'web.route',
    route: path,
    requests: files.size,
    gzipBytes,
    budget,
    ratio: Number((gzipBytes / budget.gzipBytes).toFixed(3)),
    pass: gzipBytes <= budget.gzipBytes && files.size <= budget.requests,
  };
  console.log(JSON.stringify(result));
  return result;
});
const failing = results.filter((r) => !r.pass);
console.log(
  JSON.stringify({
    bench: 'web.routes',
    routes: results.length,
    passing: results.length - failing.length,
    failing: failing.map((r) => r.route),
    largest_gzip_bytes: Math.max(...results.map((r) => r.gzipBytes)),
    most_requests: Math.max(...results.map((r) => r.requests)),
    budget,
  }),
);
