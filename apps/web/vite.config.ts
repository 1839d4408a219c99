import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
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

/** Big, rarely changing vendors get their own long-cached chunks. */
const vendorGroups = [
  { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
  { name: 'router', test: /node_modules[\\/]react-router[\\/]/ },
  // antd is left to automatic splitting: one antd chunk would load every component on /login.
  { name: 'antd-core', test: /node_modules[\\/](@ant-design[\\/](cssinjs|colors|fast-color)|@emotion)[\\/]/ },
  { name: 'i18n', test: /node_modules[\\/](i18next|react-i18next)[\\/]/ },
  { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/ },
  { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
];

export default defineConfig({
  plugins: [react(), precompress()],
  resolve: {
    alias: {
      '@fbox/contracts': fileURLToPath(new URL('../../packages/contracts/src/index.ts', import.meta.url)),
    },
  },
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
  build: {
    chunkSizeWarningLimit: 1200,
    manifest: true,
    rolldownOptions: {
      output: { codeSplitting: { groups: vendorGroups } },
    },
  },
});
