import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { i18nReady } from './lib/i18n';
import './styles.css';
import { router } from './app/router';

const root = document.getElementById('root');
if (root) {
  const mount = root;
  void i18nReady.then(() =>
    createRoot(mount).render(
      <StrictMode>
        {/*
          Router updates are not transitions: a page commits in one go right after the URL changes
          (a time-sliced transition leaves a moment where the new URL shows the old screen).
          The dom build wires ReactDOM.flushSync for navigations that ask for it.
          antd's provider comes with the pages that use antd (app/AntdProvider.tsx), not here.
        */}
        <RouterProvider router={router} useTransitions={false} />
      </StrictMode>,
    ),
  );
}
