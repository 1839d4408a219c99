// Tests render texts: load the initial language before any test runs, as main.tsx does before rendering.
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { i18nReady } from './lib/i18n';

// Without vitest globals, Testing Library does not unmount by itself: every test's tree is unmounted
// after it, so no React work of one test is left to run once the file's jsdom is gone.
afterEach(cleanup);

await i18nReady;

// antd's form grid and modal read media queries; jsdom has none.
window.matchMedia ??= ((media: string) => ({
  matches: false,
  media,
  onchange: null,
  addListener: () => {},
  removeListener: () => {},
  addEventListener: () => {},
  removeEventListener: () => {},
  dispatchEvent: () => false,
})) as unknown as typeof window.matchMedia;

// antd's select dropdown measures with ResizeObserver; jsdom has none.
window.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof window.ResizeObserver;
