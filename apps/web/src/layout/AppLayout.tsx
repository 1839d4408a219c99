import Layout from 'antd/es/layout';
import { Suspense, useState } from 'react';
import { Outlet } from 'react-router';
import { lazyNamed } from '../lib/lazy-named';
import { useStore } from '../lib/store';
import { closeSidebar, deviceStore, sidebarStore, useSettings } from '../lib/ui-store';
import styles from './Layout.module.css';
import { Navbar } from './Navbar';
import { Sidebar } from './Sidebar';
import { TagsView } from './TagsView';
import { useDayjsLocale } from './use-dayjs-locale';
import { useResponsive } from './use-responsive';

/** The settings drawer (colour picker and switches) is fetched when it is first opened. */
const SettingsDrawer = lazyNamed(() => import('./SettingsDrawer'), 'SettingsDrawer');

/** The main layout of spec §2: sidebar, top bar with tags view, page, settings drawer. */
export const AppLayout = () => {
  useResponsive();
  useDayjsLocale();
  const { tagsView, fixedHeader } = useSettings();
  const opened = useStore(sidebarStore);
  const mobile = useStore(deviceStore) === 'mobile';
  const [settingsOpen, setSettingsOpen] = useState(false);
  // Stays mounted once opened, so closing it animates.
  const [settingsUsed, setSettingsUsed] = useState(false);

  return (
    <Layout className={styles.root}>
      <Sidebar />
      {mobile && opened && <div className={styles.backdrop} onClick={closeSidebar} aria-hidden="true" />}
      <Layout className={styles.body}>
        <header className={fixedHeader ? `${styles.header} ${styles.headerFixed}` : styles.header}>
          <Navbar
            onOpenSettings={() => {
              setSettingsUsed(true);
              setSettingsOpen(true);
            }}
          />
          {tagsView && <TagsView />}
        </header>
        <Layout.Content className={styles.main}>
          <Outlet />
        </Layout.Content>
      </Layout>
      {settingsUsed && (
        <Suspense fallback={null}>
          <SettingsDrawer open={settingsOpen} onClose={() => setSettingsOpen(false)} />
        </Suspense>
      )}
    </Layout>
  );
};
