import { useSyncExternalStore } from 'react';
import type { DataRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { isOpening, subscribeOpening } from './opening';

/**
 * The router, rendering the page the console opens on as a transition and every later one in one go.
 *
 * The first page is the layout, the page and its rows at once: about 700 ms of rendering on a
 * 100,000-miner mine's miner list, which as one task keeps the browser from answering input. A
 * transition's render yields to the browser every few milliseconds. Later navigations are not
 * transitions: a page commits right after the URL changes (a time-sliced one leaves a moment where
 * the new URL shows the old screen). The dom build wires ReactDOM.flushSync for navigations that ask
 * for it.
 */
export const ConsoleRouter = ({ router }: { router: DataRouter }) => {
  const opening = useSyncExternalStore(subscribeOpening, isOpening);
  return <RouterProvider router={router} useTransitions={opening ? undefined : false} />;
};
