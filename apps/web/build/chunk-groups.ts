import { fileURLToPath } from 'node:url';
import type { InlineConfig, Rolldown } from 'vite';
import { build } from 'vite';

/**
 * How the build is cut into files (issue 17, goal 4: a route ≤ 30 requests). Left to itself the
 * bundler splits antd into one chunk per set of pages sharing it, and a console page downloaded
 * about a hundred files. Here the split follows what a visitor needs at each step:
 *
 * 1. big, rarely changing vendors, each long-cached on its own;
 * 2. `app`: the rest of what `main.tsx` needs (router, providers, loading screen);
 * 3. `signin`: what the sign-in page adds (no antd: it is plain HTML and CSS);
 * 4. `antd`: antd's provider and what it pulls in, for every page that uses antd;
 * 5. `console`: what the layout adds (menu, top bar, mine picker, live feed, query cache);
 * 6. `pages`: code four or more pages share (tables, forms, pickers), in one long-cached chunk;
 *    code fewer pages share is left to the bundler's own split.
 *
 * Measured in a browser (bench/web-console.mjs, 36 routes): with the bundler alone a route fetched
 * 69 files at most (median 522 KB gzip); with sharing from 4 pages 28 at most (median 584 KB); from
 * 8 pages 41 (562 KB); from 12 pages 47 (549 KB). Four is the one that keeps every route ≤ 30.
 *
 * "Needs" is what the bundler itself decides after tree-shaking: a first build with its automatic
 * split says which chunks each step loads, and the real build gathers the modules of those chunks.
 * Walking the import graph instead would follow barrels (`@fbox/contracts`, `features/x/index.ts`)
 * and pull every language's texts and every schema into the first download.
 */

const src = (path: string) => fileURLToPath(new URL(`../src/${path}`, import.meta.url));
/** `null`: the build's entry (index.html, whose script is main.tsx). */
const steps = [
  ['app', null],
  ['signin', src('features/auth/LoginPage.tsx')],
  ['antd', src('app/AntdProvider.tsx')],
  ['console', src('app/ProtectedShell.tsx')],
] as const;
type Step = (typeof steps)[number][0];
/** Modules that stay where the bundler puts them: the entry script and the lazily imported roots. */
const roots = new Set([src('main.tsx'), ...steps.flatMap(([, root]) => (root ? [root] : []))]);

const vendorGroups = [
  { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
  { name: 'router', test: /node_modules[\\/]react-router[\\/]/ },
  { name: 'antd-core', test: /node_modules[\\/](@ant-design[\\/](cssinjs|colors|fast-color)|@emotion)[\\/]/ },
  { name: 'i18n', test: /node_modules[\\/](i18next|react-i18next)[\\/]/ },
  { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/ },
  { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
].map((group) => ({ ...group, priority: 30 }));

interface Plan {
  /** The step that first needs each module. */
  stepOf: Map<string, Step>;
  /** Modules the app imports lazily (pages, dialogs, the shell): each keeps a chunk of its own. */
  lazyRoots: Set<string>;
}

/** Read off a first build with the bundler's own split. */
const plan = async (config: InlineConfig): Promise<Plan> => {
  const result = await build({
    ...config,
    configFile: false,
    logLevel: 'silent',
    build: {
      ...config.build,
      write: false,
      manifest: false,
      rolldownOptions: { output: { codeSplitting: { groups: vendorGroups } } },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunks = outputs
    .flatMap((o) => o.output)
    .filter((c): c is Rolldown.OutputChunk => c.type === 'chunk');
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const loads = (root: Rolldown.OutputChunk | undefined, into = new Set<Rolldown.OutputChunk>()) => {
    if (!root || into.has(root)) return into;
    into.add(root);
    for (const file of root.imports) loads(byFile.get(file), into);
    return into;
  };
  const lazyRoots = new Set(
    chunks.flatMap((c) => (c.isDynamicEntry && c.facadeModuleId ? [c.facadeModuleId] : [])),
  );
  const stepOf = new Map<string, Step>();
  for (const [step, root] of steps) {
    const rootChunk = chunks.find((c) => (root === null ? c.isEntry : c.facadeModuleId === root));
    if (!rootChunk) throw new Error(`chunk plan: no chunk starts at ${root ?? 'the entry'}`);
    for (const chunk of loads(rootChunk))
      for (const id of chunk.moduleIds)
        if (!roots.has(id) && !lazyRoots.has(id) && !stepOf.has(id)) stepOf.set(id, step);
  }
  return { stepOf, lazyRoots };
};

/**
 * The groups for the real build, higher priority first: a module a step needs is captured by that
 * step before a later step (or its dependencies) can take it.
 */
export const chunkGroups = async (config: InlineConfig) => {
  const { stepOf, lazyRoots } = await plan(config);
  return [
    ...vendorGroups,
    ...steps.map(([step], index) => ({
      name: step,
      priority: 20 - index,
      test: (id: string) => stepOf.get(id) === step,
    })),
    {
      name: 'pages',
      priority: 10,
      test: (id: string) => !lazyRoots.has(id),
      minShareCount: 4,
    },
  ];
};
