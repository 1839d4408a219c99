import { type Board, type BoardTheme, Code } from '@fbox/contracts';
import { QueryClientProvider, type UseQueryResult } from '@tanstack/react-query';
import ConfigProvider from 'antd/es/config-provider';
import Spin from 'antd/es/spin';
import antdTheme from 'antd/es/theme';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLiveArea } from '../../app/live-updates';
import { queryClient } from '../../app/query-client';
import { ApiError } from '../../lib/api';
import { userInfoQuery } from '../auth';
import styles from './BoardScreen.module.css';
import type { BoardAddress } from './board-types';
import { BoardProblem } from './components/BoardProblem';

/**
 * What a full-screen board needs that the signed-in layout gives other pages (a bare route has
 * none of it): the app's query cache, the live feed of the board's mine so its figures follow the
 * devices, and the user's time zone (read with the user info) for its times. A kiosk address has
 * no user: its feed is the kiosk link's, its times the screen's own zone.
 */
export const BoardScreen = ({ address, children }: { address: BoardAddress; children: ReactNode }) => {
  const { kiosk, areaId } = address;
  useLiveArea(kiosk ? { kiosk } : areaId > 0 ? areaId : undefined, queryClient);
  useEffect(() => {
    if (!kiosk) void queryClient.prefetchQuery(userInfoQuery());
  }, [kiosk]);
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

/**
 * A board page's answer, once there is one: a spinner while it loads, "not found" for an address
 * without a board or a board the server does not know (or of another type), the error with a retry
 * otherwise. The window's title becomes the board's. `named`: the address names a board and mine.
 */
export const BoardGate = <T extends { board: Board }>({
  query,
  named,
  children,
}: {
  query: UseQueryResult<T>;
  named: boolean;
  children: (data: T) => ReactNode;
}) => {
  const { t } = useTranslation();
  const title = query.data?.board.title;
  useEffect(() => {
    if (title) document.title = `${title} - ${t('app.brand.title')}`;
  }, [title, t]);
  if (named && query.isPending)
    return (
      <BoardFrame theme="dark" centered>
        <Spin size="large" />
      </BoardFrame>
    );
  if (!query.data) {
    const notFound = !named || (query.error instanceof ApiError && query.error.code === Code.NOT_FOUND);
    return (
      <BoardFrame theme="dark" centered>
        <BoardProblem notFound={notFound} onRetry={() => void query.refetch()} />
      </BoardFrame>
    );
  }
  return <BoardFrame theme={query.data.board.theme}>{children(query.data)}</BoardFrame>;
};
