import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { chunkGroups } from './build/chunk-groups';
import { consolePreload } from './build/console-preload';
import { endpointRoutes } from './build/endpoint-routes';
import { precompress } from './build/precompress';

const server = process.env.FBOX_API ?? 'http://127.0.0.1:8080';
/** API prefixes only: `/index` itself is the Home page route, so the legacy prefix needs its slash. */
const proxy = {
  ...Object.fromEntries(
    ['^/index/', '^/api/', '^/ff-plat-api/'].map((prefix) => [
      prefix,
      { target: server, changeOrigin: true },
    ]),
  ),
  /**
   * The live feed (`/ws?area_id=N`). No `changeOrigin`: the server accepts an upgrade only when its
   * Origin matches the Host, and the browser's Origin is this dev server.
   */
  '^/ws(?:\\?|$)': { target: server, ws: true },
};

const root = fileURLToPath(new URL('.', import.meta.url));
const resolve = {
  alias: {
    '@fbox/contracts': fileURLToPath(new URL('../../packages/contracts/src/index.ts', import.meta.url)),
  },
};

export default defineConfig(async ({ command }) => ({
  plugins: [react(), endpointRoutes(), consolePreload(), precompress()],
  resolve,
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
  build: {
    chunkSizeWarningLimit: 1200,
    manifest: true,
    rolldownOptions: {
      // The split is planned from a first build (see build/chunk-groups.ts); the dev server needs none.
      output: {
        codeSplitting: {
          groups:
            command === 'build'
              ? await chunkGroups({ root, resolve, plugins: [react(), endpointRoutes()] })
              : [],
        },
      },
    },
  },
}));
