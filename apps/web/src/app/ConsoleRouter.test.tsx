import { act, render, screen } from '@testing-library/react';
import { Suspense, use } from 'react';
import { createMemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ConsoleRouter } from './ConsoleRouter';
import { markOpened } from './opening';

/** A promise the test settles, and a page that waits for it (suspends until then). */
const held = () => {
  let settle!: () => void;
  const promise = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const Page = ({ name }: { name: string }) => {
    use(promise);
    return <p>{name}</p>;
  };
  return { promise, settle, Page };
};

// Whether an update was a transition shows when the new screen suspends: a transition keeps the
// screen already shown, an update in one go shows the nearest loading state at once.
const renderConsole = (router: ReturnType<typeof createMemoryRouter>) =>
  render(
    <Suspense fallback={<p>suspended</p>}>
      <ConsoleRouter router={router} />
    </Suspense>,
  );

describe('ConsoleRouter', () => {
  it('renders the page the console opens on as a transition, and later pages in one go', async () => {
    const loader = held();
    const first = held();
    const second = held();
    const router = createMemoryRouter([
      {
        path: '/',
        loader: () => loader.promise.then(() => null),
        element: <first.Page name="first page" />,
        hydrateFallbackElement: <p>opening</p>,
      },
      { path: '/next', element: <second.Page name="next page" /> },
    ]);
    renderConsole(router);
    expect(screen.getByText('opening')).toBeTruthy();

    await act(async () => loader.settle());
    // The first page suspended in a transition: the opening screen stays.
    expect(screen.getByText('opening')).toBeTruthy();
    expect(screen.queryByText('suspended')).toBeNull();
    await act(async () => first.settle());
    expect(screen.getByText('first page')).toBeTruthy();

    act(markOpened); // RootGuard does this when the first page renders
    await act(async () => {
      await router.navigate('/next');
    });
    // Not a transition: the suspended page shows its loading state, and the old page is hidden.
    expect(screen.getByText('suspended')).toBeTruthy();
    expect(screen.getByText('first page').style.display).toBe('none');
    await act(async () => second.settle());
    expect(screen.getByText('next page')).toBeTruthy();
  });
});
