import { agentUsername, type ClientRecord, type Mine } from '@fbox/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Drawer from 'antd/es/drawer';
import Popconfirm from 'antd/es/popconfirm';
import Table, { type ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { StatusTag } from '../../../components/StatusTag';
import { formatTime } from '../../../lib/time';
import { NO_DATA } from '../../../lib/values';
import { useClientRecords, useRevokeClient } from '../api';

const orDash = (text: string) => text || NO_DATA;

/**
 * Client key records of a mine (spec §3): every gateway and site agent that connected, with status
 * and times in the user's time zone, and revoke (embedded broker only) after a confirmation.
 */
export const ClientRecordsDrawer = ({
  mine,
  open,
  onClose,
  afterClose,
}: {
  mine: Mine | null;
  open: boolean;
  onClose: () => void;
  /** The closing animation is over: the mine may be forgotten. */
  afterClose: () => void;
}) => {
  const { t } = useTranslation();
  const records = useClientRecords(mine?.id ?? null);
  const revoke = useRevokeClient(mine?.id ?? 0);
  const broker = records.data?.broker;

  const question = (record: ClientRecord) =>
    record.kind === 'gateway'
      ? t('mines.clients.revokeGateway', { name: record.fbox_name ?? record.client_key })
      : t('mines.clients.revokeAgent', { clientId: record.client_id });

  const columns: ColumnsType<ClientRecord> = [
    {
      key: 'kind',
      title: t('mines.clients.kind'),
      render: (_, record) =>
        record.kind === 'gateway'
          ? `${t('mines.clients.kind.gateway')}${record.fbox_name ? ` · ${record.fbox_name}` : ''}`
          : t('mines.clients.kind.agent'),
    },
    {
      key: 'client_key',
      title: t('mines.clients.clientKey'),
      render: (_, record) => <Typography.Text code>{record.client_key}</Typography.Text>,
    },
    { key: 'client_id', title: t('mines.clients.clientId'), render: (_, record) => orDash(record.client_id) },
    { key: 'ip', title: t('mines.clients.ip'), render: (_, record) => orDash(record.ip) },
    {
      key: 'computer_name',
      title: t('mines.clients.computerName'),
      render: (_, record) => (
        <>
          {orDash(record.computer_name)}
          {record.version && (
            <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
              {t('mines.clients.versionOf', { version: record.version })}
            </Typography.Text>
          )}
        </>
      ),
    },
    {
      key: 'status',
      title: t('common.status.title'),
      render: (_, record) =>
        record.revoked_at !== null ? (
          <Tag color="error">{t('mines.clients.revoked')}</Tag>
        ) : (
          <StatusTag status={record.online ? 'online' : 'offline'} />
        ),
    },
    {
      key: 'last_seen_at',
      title: t('mines.clients.lastSeen'),
      render: (_, record) => (
        <Tooltip title={t('mines.clients.firstSeenAt', { time: formatTime(record.first_seen_at) })}>
          <span>{formatTime(record.last_seen_at)}</span>
        </Tooltip>
      ),
    },
    {
      key: 'actions',
      title: t('mines.actions'),
      fixed: 'right',
      render: (_, record) => (
        <Popconfirm
          title={<span style={{ display: 'inline-block', maxWidth: 360 }}>{question(record)}</span>}
          okText={t('mines.clients.revoke')}
          cancelText={t('common.action.cancel')}
          okButtonProps={{ danger: true }}
          onConfirm={() => revoke.mutateAsync(record.id)}
          disabled={broker !== 'embedded' || record.revoked_at !== null}
        >
          <Button
            size="small"
            danger
            disabled={broker !== 'embedded' || record.revoked_at !== null}
            data-testid={`client-revoke-${record.id}`}
          >
            {t('mines.clients.revoke')}
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <Drawer
      open={open}
      onClose={onClose}
      afterOpenChange={(opened) => !opened && afterClose()}
      width={1100}
      title={mine ? t('mines.clients.title', { name: mine.area_name }) : undefined}
      data-testid="client-records"
    >
      {mine && (
        <Typography.Paragraph type="secondary">
          {t('mines.clients.agentLogin', { username: agentUsername(mine.id) })}
        </Typography.Paragraph>
      )}
      {broker === 'external' && (
        <Alert type="warning" showIcon title={t('mines.clients.external')} style={{ marginBottom: 16 }} />
      )}
      {broker === 'off' && (
        <Alert type="info" showIcon title={t('mines.clients.off')} style={{ marginBottom: 16 }} />
      )}
      <Table<ClientRecord>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={records.data?.items ?? []}
        loading={records.isLoading}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('mines.clients.empty') }}
      />
    </Drawer>
  );
};
