import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { runnerImport } from 'vite';

const contracts = fileURLToPath(new URL('../../../packages/contracts/src/index.ts', import.meta.url));
const id = 'virtual:endpoint-routes';
const resolvedId = `\0${id}`;

/**
 * `virtual:endpoint-routes`: the contracts' endpoint table as routes (method, path, permission, how
 * its answer reads), written out as data when the web is built. The table itself holds every
 * endpoint's schemas, which only the server checks: imported by the layout (permissions) it put
 * the contracts' schemas and zod into every page, 150 KB of JavaScript run before the first render.
 */
export const endpointRoutes = (): Plugin => ({
  name: 'fbox-endpoint-routes',
  resolveId: (source) => (source === id ? resolvedId : undefined),
  async load(loaded) {
    if (loaded !== resolvedId) return;
    const { module, dependencies } = await runnerImport<typeof import('@fbox/contracts')>(contracts, {
      configFile: false,
      logLevel: 'silent',
    });
    for (const file of dependencies) this.addWatchFile(file);
    const routes = Object.fromEntries(
      Object.entries(module.endpoints).map(([name, endpoint]) => [name, module.routeOf(endpoint)]),
    );
    return `export const routes = ${JSON.stringify(routes)};`;
  },
});
