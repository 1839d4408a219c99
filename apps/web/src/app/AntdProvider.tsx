import ConfigProvider from 'antd/es/config-provider';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import { lazy, type ReactNode, Suspense } from 'react';
import { Outlet } from 'react-router';
import { languageStore } from '../lib/i18n';
import { loadingStore } from '../lib/loading';
import { useStore } from '../lib/store';
import { useSettings } from '../lib/ui-store';

const Spin = lazy(() => import('antd/es/spin'));

/** The global loading overlay of spec §7 (delayed so quick calls do not flash; loaded when first needed). */
const GlobalLoading = () => {
  const count = useStore(loadingStore);
  if (count === 0) return null;
  return (
    <Suspense fallback={null}>
      <Spin fullscreen spinning delay={300} />
    </Suspense>
  );
};

/**
 * antd's locale and theme, following the language and the settings drawer, with the global loading
 * overlay. It wraps every page that uses antd (the layout, boards, error pages) and not /login: the
 * sign-in page is plain HTML and CSS, so the first page most people load downloads no antd at all.
 */
export const AntdProvider = ({ children }: { children: ReactNode }) => {
  const language = useStore(languageStore);
  const { themeColor } = useSettings();
  return (
    <ConfigProvider locale={language === 'zh' ? zhCN : enUS} theme={{ token: { colorPrimary: themeColor } }}>
      <GlobalLoading />
      {children}
    </ConfigProvider>
  );
};

/** The layout route around the pages that use antd. */
export const AntdOutlet = () => (
  <AntdProvider>
    <Outlet />
  </AntdProvider>
);
