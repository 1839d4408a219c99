import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * The URL of a module beside `importer` (an `import.meta.url`) by its name without extension: the
 * built `.js` next to built code, the `.ts` source next to source run through tsx or Vitest.
 */
export const siblingModule = (importer: string, name: string): URL =>
  new URL(`./${name}${extname(fileURLToPath(importer))}`, importer);

/** tsx's loader API as an ES module (its `import` export; the CommonJS one fails in a worker). */
const tsxEsmApi = (): string => {
  const pkg = createRequire(import.meta.url)('tsx/package.json') as {
    exports: Record<string, { import: { default: string } }>;
  };
  return pkg.exports['./esm/api']!.import.default;
};

/**
 * Starts a worker thread running the module at `url`. A TypeScript source (the server run through
 * tsx, or a test) is loaded through tsx's loader, registered in the worker first: Node 20 workers
 * do not take loader hooks from `execArgv`.
 */
export const startWorker = (url: URL, workerData: unknown): Worker => {
  if (!url.pathname.endsWith('.ts')) return new Worker(url, { workerData });
  const tsx = new URL(tsxEsmApi(), pathToFileURL(createRequire(import.meta.url).resolve('tsx/package.json')))
    .href;
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(boot, { eval: true, workerData });
};
