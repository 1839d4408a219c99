import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** Why a board has nothing to show (not found, or the server failed), with the way back to the list. */
export const BoardProblem = ({ notFound, onRetry }: { notFound: boolean; onRetry: () => void }) => {
  const { t } = useTranslation();
  return (
    <Result
      status={notFound ? '404' : 'error'}
      title={notFound ? t('board.data.notFound') : t('board.data.error')}
      subTitle={notFound ? t('board.data.notFoundHint') : undefined}
      extra={[
        !notFound && (
          <Button key="retry" onClick={onRetry}>
            {t('common.action.retry')}
          </Button>
        ),
        <Link key="back" to="/board/boardList" data-testid="board-back">
          {t('board.data.backToList')}
        </Link>,
      ]}
      data-testid={notFound ? 'board-not-found' : 'board-error'}
    />
  );
};
