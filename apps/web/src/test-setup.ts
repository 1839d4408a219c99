// Tests render texts: load the initial language before any test runs, as main.tsx does before rendering.
import { cleanup, configure } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, vi } from 'vitest';
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

// antd writes its styles into <style> tags at run time, thousands of rules. jsdom matches every rule
// against an element in getComputedStyle, which Testing Library's role queries call for each element
// and its ancestors: on the board list that was half of the file's 52 s. Every render here gets a
// StyleProvider that writes antd's styles into a detached element instead, so no page's CSS reaches
// jsdom's cascade (the 52 s became 9 s). Tests see antd's markup, classes and inline styles as before;
// nothing in them reads a colour or a size antd's style sheet would set.
vi.mock('@testing-library/react', async (importOriginal) => {
  const rtl = await importOriginal<typeof import('@testing-library/react')>();
  const { createElement } = await import('react');
  const { StyleProvider } = await import('@ant-design/cssinjs');
  const detached = document.createElement('div');
  type Options = NonNullable<Parameters<typeof rtl.render>[1]>;
  const render = ((ui: Parameters<typeof rtl.render>[0], options: Options = {}) => {
    const Inner = options.wrapper;
    const wrapper = ({ children }: { children?: ReactNode }) =>
      createElement(
        StyleProvider,
        { container: detached },
        Inner ? createElement(Inner, null, children) : children,
      );
    return rtl.render(ui, { ...options, wrapper });
  }) as typeof rtl.render;
  return { ...rtl, render };
});

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
