import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { endpointRoutes } from './build/endpoint-routes';

export default defineConfig({
  plugins: [react(), endpointRoutes()],
  resolve: {
    alias: {
      '@fbox/contracts': fileURLToPath(new URL('../../packages/contracts/src/index.ts', import.meta.url)),
    },
  },
  test: {
    name: 'web',
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    // A worker imports React, antd and the console's texts once, not once per file (each file still
    // gets a fresh jsdom; renders are unmounted and page state reset after every test): the project
    // went from 144 s to 56 s alone. Passes in shuffled file orders too.
    isolate: false,
    passWithNoTests: true,
    setupFiles: ['src/test-setup.ts'],
    // A bound for a test's React work on a loaded 2-core CI machine, where the dialog tests took
    // 30–35 s before test-setup kept antd's style sheets out of jsdom.
    testTimeout: 60_000,
  },
});
