import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { i18nReady } from './lib/i18n';
import './styles.css';
import { ConsoleRouter } from './app/ConsoleRouter';
import { router } from './app/router';

const root = document.getElementById('root');
if (root) {
  const mount = root;
  void i18nReady.then(() =>
    createRoot(mount).render(
      <StrictMode>
        {/* antd's provider comes with the pages that use antd (app/AntdProvider.tsx), not here. */}
        <ConsoleRouter router={router} />
      </StrictMode>,
    ),
  );
}
