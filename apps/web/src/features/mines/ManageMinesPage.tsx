import { Code, type Mine } from '@fbox/contracts';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Result from 'antd/es/result';
import Space from 'antd/es/space';
import Table, { type ColumnsType } from 'antd/es/table';
import Typography from 'antd/es/typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CreateButton } from '../../components/CreateButton';
import { ApiError } from '../../lib/api';
import { formatTime } from '../../lib/time';
import { NO_DATA } from '../../lib/values';
import { useUserInfo } from '../auth';
import { useMineList } from './api';
import { AgentKeyCell } from './components/AgentKeyCell';
import { ClientRecordsDrawer } from './components/ClientRecordsDrawer';
import { DeleteMineButton } from './components/DeleteMineButton';
import { MineFormDialog } from './components/MineFormDialog';

type Dialog = { kind: 'create' } | { kind: 'edit'; mine: Mine } | null;

/**
 * Manage Mines (/set/mines): the master's mines, or the ones an administrator manages, with every
 * field, the Agent Key, and their client key records. Creating and deleting are the master's.
 */
export const ManageMinesPage = () => {
  const { t } = useTranslation();
  const mines = useMineList();
  const isMaster = useUserInfo().data?.is_masterID === 1;
  const [dialog, setDialog] = useState<Dialog>(null);
  const [clientsOf, setClientsOf] = useState<Mine | null>(null);
  const [clientsOpen, setClientsOpen] = useState(false);

  if (mines.error) {
    const forbidden = mines.error instanceof ApiError && mines.error.code === Code.FORBIDDEN;
    return (
      <Card>
        <Result
          status={forbidden ? '403' : 'warning'}
          subTitle={forbidden ? t('mines.forbidden') : t('mines.loadFailed')}
          extra={
            !forbidden && <Button onClick={() => void mines.refetch()}>{t('common.action.retry')}</Button>
          }
        />
      </Card>
    );
  }

  const columns: ColumnsType<Mine> = [
    { key: 'area_name', title: t('field.area_name'), dataIndex: 'area_name', fixed: 'left' },
    {
      key: 'electricity_hz',
      title: t('field.electricity_hz'),
      render: (_, mine) => t('mines.hz', { hz: mine.electricity_hz }),
    },
    {
      key: 'electricity_price',
      title: t('field.electricity_price'),
      render: (_, mine) => t('mines.price', { price: mine.electricity_price }),
    },
    { key: 'contact', title: t('field.contact'), render: (_, mine) => mine.contact || NO_DATA },
    {
      key: 'comment',
      title: t('field.comment'),
      render: (_, mine) => (
        <Typography.Paragraph
          ellipsis={{ rows: 2, tooltip: mine.comment }}
          style={{ margin: 0, maxWidth: 240 }}
        >
          {mine.comment || NO_DATA}
        </Typography.Paragraph>
      ),
    },
    {
      key: 'agent_key',
      title: t('mines.agentKey'),
      render: (_, mine) => <AgentKeyCell mine={mine} />,
    },
    { key: 'created_at', title: t('mines.createdAt'), render: (_, mine) => formatTime(mine.created_at) },
    {
      key: 'actions',
      title: t('mines.actions'),
      fixed: 'right',
      render: (_, mine) => (
        <Space size="small" wrap>
          <Button
            size="small"
            onClick={() => setDialog({ kind: 'edit', mine })}
            data-testid={`mine-edit-${mine.id}`}
          >
            {t('common.action.edit')}
          </Button>
          <Button
            size="small"
            onClick={() => {
              setClientsOf(mine);
              setClientsOpen(true);
            }}
            data-testid={`mine-clients-${mine.id}`}
          >
            {t('mines.clients')}
          </Button>
          {isMaster && <DeleteMineButton mine={mine} />}
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={t('app.route.manageMines')}
      extra={
        isMaster && (
          <CreateButton
            label={t('mines.create')}
            testId="mine-create"
            onClick={() => setDialog({ kind: 'create' })}
          />
        )
      }
    >
      <Table<Mine>
        rowKey="id"
        columns={columns}
        dataSource={mines.data ?? []}
        loading={mines.isLoading}
        pagination={false}
        scroll={{ x: 'max-content' }}
        data-testid="mine-table"
      />
      <MineFormDialog
        key={dialog?.kind === 'edit' ? dialog.mine.id : 'new'}
        open={dialog !== null}
        mine={dialog?.kind === 'edit' ? dialog.mine : undefined}
        onClose={() => setDialog(null)}
      />
      <ClientRecordsDrawer
        mine={clientsOf}
        open={clientsOpen}
        onClose={() => setClientsOpen(false)}
        afterClose={() => setClientsOf(null)}
      />
    </Card>
  );
};
