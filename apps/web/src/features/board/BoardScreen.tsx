import type { BoardTheme } from '@fbox/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import ConfigProvider from 'antd/es/config-provider';
import antdTheme from 'antd/es/theme';
import { type ReactNode, useEffect } from 'react';
import { useLiveArea } from '../../app/live-updates';
import { queryClient } from '../../app/query-client';
import { userInfoQuery } from '../auth';
import styles from './BoardScreen.module.css';

/**
 * What a full-screen board needs that the signed-in layout gives other pages (a bare route has
 * none of it): the app's query cache, the live feed of the board's mine so its figures follow the
 * devices, and the user's time zone (read with the user info) for its times.
 */
export const BoardScreen = ({ areaId, children }: { areaId: number; children: ReactNode }) => {
  useLiveArea(areaId > 0 ? areaId : undefined, queryClient);
  useEffect(() => {
    void queryClient.prefetchQuery(userInfoQuery());
  }, []);
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
};

/**
 * The whole window in a board's colours, antd's parts included, and nothing to scroll: a wall
 * display has no one to scroll it. `centered` holds a single message (loading, not found).
 */
export const BoardFrame = ({
  theme,
  centered = false,
  children,
}: {
  theme: BoardTheme;
  centered?: boolean;
  children: ReactNode;
}) => (
  <ConfigProvider
    theme={{ algorithm: theme === 'dark' ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm }}
  >
    <div
      className={[styles.screen, styles[theme], centered && styles.centered].filter(Boolean).join(' ')}
      data-testid="board-screen"
    >
      {children}
    </div>
  </ConfigProvider>
);
