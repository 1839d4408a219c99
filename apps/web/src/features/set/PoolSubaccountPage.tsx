import type { PoolSubaccount } from '@fbox/contracts';
import Button from 'antd/es/button';
import Space from 'antd/es/space';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeleteButton } from '../../components/DeleteButton';
import type { ServerColumn } from '../../components/ServerTable';
import { formatTime } from '../../lib/time';
import { usePoolSubaccounts, useRemovePoolSubaccount } from './api';
import { ExternalLink } from './components/ExternalLink';
import { PoolAccountTable, usePoolListQuery } from './components/PoolAccountTable';
import { PoolSubaccountDialog } from './components/PoolSubaccountDialog';

/** Whether a secret is stored: the only thing the server says about it. */
const SecretState = ({ stored, testId }: { stored: boolean; testId: string }) => {
  const { t } = useTranslation();
  return stored ? (
    <Tag color="success" data-testid={testId}>
      {t('pools.secret.stored')}
    </Tag>
  ) : (
    <Tag data-testid={testId}>{t('pools.secret.none')}</Tag>
  );
};

const syncColors = { pending: 'processing', ok: 'success', failed: 'error', unsupported: 'default' } as const;

/**
 * How reading the pool went: a tag (its tooltip says when it last worked and, after a failure, the
 * pool's reason and the next try); nothing before the first read or without an API key.
 */
const SyncState = ({ sync, testId }: { sync: PoolSubaccount['sync']; testId: string }) => {
  const { t } = useTranslation();
  if (!sync) return <span data-testid={testId}>-</span>;
  const lines = [
    sync.last_success_at !== null && t('pools.sync.lastSuccess', { time: formatTime(sync.last_success_at) }),
    sync.status === 'failed' && sync.last_error && t('pools.sync.reason', { reason: sync.last_error }),
    sync.status === 'failed' && t('pools.sync.next', { time: formatTime(sync.next_attempt_at) }),
    sync.status === 'unsupported' && t('pools.sync.estimated'),
  ].filter(Boolean);
  return (
    <Tooltip title={lines.length > 0 ? lines.map((line) => <div key={String(line)}>{line}</div>) : undefined}>
      <Tag color={syncColors[sync.status]} data-testid={testId}>
        {t(`pools.sync.${sync.status}`)}
      </Tag>
    </Tooltip>
  );
};

/**
 * Mining Pool Subaccount (/set/poolSubaccount): the pool accounts of the selected mine with their
 * read-only observer address and API credentials (write-only), which the revenue statistics use.
 */
export const PoolSubaccountPage = () => {
  const { t } = useTranslation();
  const list = usePoolListQuery();
  const subaccounts = usePoolSubaccounts(list.query);
  const remove = useRemovePoolSubaccount();
  const [editing, setEditing] = useState<PoolSubaccount | 'new' | null>(null);

  const columns: ServerColumn<PoolSubaccount>[] = [
    {
      key: 'observer_url',
      title: t('field.observer_url'),
      render: (_, row) =>
        row.observer_url ? (
          <ExternalLink href={row.observer_url} testId={`pool-subaccount-open-${row.id}`} />
        ) : (
          '-'
        ),
    },
    {
      key: 'has_api_key',
      title: t('field.api_key'),
      render: (_, row) => <SecretState stored={row.has_api_key} testId={`pool-subaccount-key-${row.id}`} />,
    },
    {
      key: 'has_api_secret',
      title: t('field.api_secret'),
      render: (_, row) => (
        <SecretState stored={row.has_api_secret} testId={`pool-subaccount-secret-${row.id}`} />
      ),
    },
    {
      key: 'sync',
      title: t('pools.sync.title'),
      render: (_, row) => <SyncState sync={row.sync} testId={`pool-subaccount-sync-${row.id}`} />,
    },
    {
      key: 'updated_at',
      title: t('pools.common.updatedAt'),
      sortField: 'updated_at',
      render: (_, row) => formatTime(row.updated_at),
    },
  ];

  return (
    <PoolAccountTable<PoolSubaccount>
      tableId="pool-subaccounts"
      testId="pool-subaccount-table"
      list={list}
      rows={subaccounts}
      columns={columns}
      rowActions={(row) => (
        <Space>
          <Button onClick={() => setEditing(row)} data-testid={`pool-subaccount-edit-${row.id}`}>
            {t('common.action.edit')}
          </Button>
          <DeleteButton
            question={t('pools.subaccount.deleteConfirm', { pool: row.pool, subaccount: row.subaccount })}
            testId={`pool-subaccount-delete-${row.id}`}
            onConfirm={() => remove.mutateAsync({ id: row.id })}
          />
        </Space>
      )}
      create={{
        label: t('pools.subaccount.create'),
        testId: 'pool-subaccount-create',
        onClick: () => setEditing('new'),
      }}
    >
      {editing && (
        <PoolSubaccountDialog
          subaccount={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </PoolAccountTable>
  );
};
