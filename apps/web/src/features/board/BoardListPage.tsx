import { ExportOutlined } from '@ant-design/icons';
import type { Board } from '@fbox/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Space from 'antd/es/space';
import Table, { type ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import Typography from 'antd/es/typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CreateButton } from '../../components/CreateButton';
import { DeleteButton } from '../../components/DeleteButton';
import { useCan } from '../../lib/access';
import { formatTime } from '../../lib/time';
import { useFboxOptions } from '../device';
import { useBoards, useDeleteBoard } from './api';
import { BoardDialog } from './BoardDialog';
import { boardPath, boardThemeKeys, boardTypeKeys, isBuilt } from './board-types';
import { KioskLinkDialog } from './KioskLinkDialog';

/** How many FBOX names a row shows before the rest go into a tooltip. */
const SHOWN_FBOXES = 3;

/** The FBOXes a board covers, by name ("All FBOXes" for none listed); a long list is cut short. */
const CoveredFboxes = ({ board, names }: { board: Board; names: Map<number, string> }) => {
  const { t } = useTranslation();
  if (board.fbox_ids.length === 0) return <Tag color="blue">{t('board.fboxes.all')}</Tag>;
  const label = (id: number) => names.get(id) ?? t('board.fboxes.unknown', { id });
  const rest = board.fbox_ids.slice(SHOWN_FBOXES);
  return (
    <Space size={[0, 4]} wrap>
      {board.fbox_ids.slice(0, SHOWN_FBOXES).map((id) => (
        <Tag key={id}>{label(id)}</Tag>
      ))}
      {rest.length > 0 && (
        <Tooltip title={rest.map(label).join(', ')}>
          <Tag>{t('board.fboxes.more', { count: rest.length })}</Tag>
        </Tooltip>
      )}
    </Space>
  );
};

/**
 * Board list (/board/boardList): the wall displays of the selected mine. Everyone opens a board
 * full-screen in a tab of its own (for the control room's screen); masters and administrators
 * create, edit and delete them.
 */
export const BoardListPage = () => {
  const { t } = useTranslation();
  const can = useCan();
  const boards = useBoards();
  const fboxes = useFboxOptions();
  const remove = useDeleteBoard();
  const [editing, setEditing] = useState<Board | 'new' | null>(null);
  const [sharing, setSharing] = useState<Board | null>(null);
  const editable = can('boardSave');
  const shareable = can('boardKioskCreate');
  const deletable = can('boardDelete');
  const names = new Map((fboxes.data ?? []).map((fbox) => [fbox.id, fbox.name]));

  const columns: ColumnsType<Board> = [
    { key: 'title', title: t('board.field.title'), dataIndex: 'title' },
    { key: 'type', title: t('board.field.type'), render: (_, board) => t(boardTypeKeys[board.type]) },
    {
      key: 'fboxes',
      title: t('board.field.fboxes'),
      render: (_, board) => <CoveredFboxes board={board} names={names} />,
    },
    { key: 'theme', title: t('board.field.theme'), render: (_, board) => t(boardThemeKeys[board.theme]) },
    {
      key: 'updated_at',
      title: t('board.list.updatedAt'),
      render: (_, board) => formatTime(board.updated_at),
    },
    {
      key: 'actions',
      title: t('common.table.actions'),
      render: (_, board) => (
        <Space>
          {isBuilt(board.type) && (
            <Button
              href={boardPath(board)}
              target="_blank"
              rel="noopener"
              icon={<ExportOutlined />}
              data-testid={`board-open-${board.id}`}
            >
              {t('board.list.open')}
            </Button>
          )}
          {editable && (
            <Button onClick={() => setEditing(board)} data-testid={`board-edit-${board.id}`}>
              {t('common.action.edit')}
            </Button>
          )}
          {shareable && isBuilt(board.type) && (
            <Button onClick={() => setSharing(board)} data-testid={`board-kiosk-${board.id}`}>
              {board.kiosk_created_at === null ? t('board.kiosk.action') : t('board.kiosk.actionShared')}
            </Button>
          )}
          {deletable && (
            <DeleteButton
              question={t('board.list.deleteQuestion', { title: board.title })}
              testId={`board-delete-${board.id}`}
              onConfirm={() => remove.mutateAsync(board.id)}
            />
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={t('app.route.boardList')}
      extra={
        editable && (
          <CreateButton
            label={t('board.list.create')}
            testId="board-create"
            onClick={() => setEditing('new')}
          />
        )
      }
    >
      {boards.isError ? (
        <Alert
          type="error"
          showIcon
          title={t('common.table.error')}
          action={<Button onClick={() => void boards.refetch()}>{t('common.action.retry')}</Button>}
        />
      ) : (
        <Table<Board>
          rowKey="id"
          columns={columns}
          dataSource={boards.data ?? []}
          loading={boards.isLoading || fboxes.isLoading}
          pagination={false}
          locale={{
            emptyText: (
              <Empty description={t('board.list.empty')}>
                {editable && <Typography.Text type="secondary">{t('board.list.emptyHint')}</Typography.Text>}
              </Empty>
            ),
          }}
          data-testid="board-table"
        />
      )}
      {editing && <BoardDialog board={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {sharing && (
        <KioskLinkDialog
          board={(boards.data ?? []).find((b) => b.id === sharing.id) ?? sharing}
          onClose={() => setSharing(null)}
        />
      )}
    </Card>
  );
};
