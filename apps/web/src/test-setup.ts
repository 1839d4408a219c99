// Tests render texts: load the initial language before any test runs, as main.tsx does before rendering.
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { setStaticMessageApi } from './lib/feedback';
import { i18nReady, loadConsoleTexts } from './lib/i18n';

// `findBy…` and `waitFor` give up after 1 s by default; with e2e and server tests beside it on two
// cores, a page's first render and fetches took longer in CI (CamerasSection). Still a bound.
configure({ asyncUtilTimeout: 5000 });

// Without vitest globals, Testing Library does not unmount by itself: every test's tree is unmounted
// after it, so no React work of one test is left to run once the file's jsdom is gone.
afterEach(cleanup);

// antd's static toasts render into a root of their own, outside the tree cleanup unmounts, and close
// on timers that can fire after the file's jsdom is gone ("window is not defined"). Tests close each
// toast at once; a test that checks its toasts registers a fake of its own.
const closedAtOnce = (_text: unknown, _seconds?: unknown, onClose?: () => void) => {
  onClose?.();
};
beforeEach(() =>
  setStaticMessageApi({
    success: closedAtOnce,
    error: closedAtOnce,
    warning: closedAtOnce,
    info: closedAtOnce,
  } as unknown as Parameters<typeof setStaticMessageApi>[0]),
);

await i18nReady;
// Tests render the console's pages directly, without the router that loads their texts.
await loadConsoleTexts();

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
