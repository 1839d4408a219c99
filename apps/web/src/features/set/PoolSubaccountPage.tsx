import { PlusOutlined } from '@ant-design/icons';
import type { PoolSubaccount } from '@fbox/contracts';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Input from 'antd/es/input';
import Space from 'antd/es/space';
import Tag from 'antd/es/tag';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeleteButton } from '../../components/DeleteButton';
import { type ServerColumn, ServerTable } from '../../components/ServerTable';
import { formatTime } from '../../lib/time';
import { useListQuery } from '../../lib/use-list-query';
import { usePoolSubaccounts, useRemovePoolSubaccount } from './api';
import { useCanManagePools } from './can-manage';
import { ExternalLink } from './components/ExternalLink';
import { PoolSubaccountDialog } from './components/PoolSubaccountDialog';
import styles from './set.module.css';

const filterKeys = ['keyword'] as const;

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

/**
 * Mining Pool Subaccount (/set/poolSubaccount): the pool accounts of the selected mine with their
 * read-only observer address and API credentials (write-only), which the revenue statistics use.
 */
export const PoolSubaccountPage = () => {
  const { t } = useTranslation();
  const list = useListQuery({ filterKeys });
  const subaccounts = usePoolSubaccounts(list.query);
  const remove = useRemovePoolSubaccount();
  const canManage = useCanManagePools();
  const [editing, setEditing] = useState<PoolSubaccount | 'new' | null>(null);

  const columns: ServerColumn<PoolSubaccount>[] = [
    { key: 'pool', title: t('field.pool'), dataIndex: 'pool', sortField: 'pool', hideable: false },
    { key: 'subaccount', title: t('field.subaccount'), dataIndex: 'subaccount', sortField: 'subaccount' },
    { key: 'coin', title: t('field.coin'), dataIndex: 'coin', sortField: 'coin' },
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
      key: 'updated_at',
      title: t('pools.common.updatedAt'),
      sortField: 'updated_at',
      render: (_, row) => formatTime(row.updated_at),
    },
    ...(canManage
      ? [
          {
            key: 'actions',
            title: t('common.table.actions'),
            hideable: false,
            render: (_: unknown, row: PoolSubaccount) => (
              <Space>
                <Button onClick={() => setEditing(row)} data-testid={`pool-subaccount-edit-${row.id}`}>
                  {t('common.action.edit')}
                </Button>
                <DeleteButton
                  question={t('pools.subaccount.deleteConfirm', {
                    pool: row.pool,
                    subaccount: row.subaccount,
                  })}
                  testId={`pool-subaccount-delete-${row.id}`}
                  onConfirm={() => remove.mutateAsync({ id: row.id })}
                />
              </Space>
            ),
          } satisfies ServerColumn<PoolSubaccount>,
        ]
      : []),
  ];

  return (
    <div className={styles.page}>
      <Card>
        <ServerTable<PoolSubaccount>
          tableId="pool-subaccounts"
          testId="pool-subaccount-table"
          columns={columns}
          list={list}
          page={subaccounts.data}
          loading={subaccounts.isFetching && !subaccounts.data}
          error={subaccounts.isError}
          onRetry={() => void subaccounts.refetch()}
          toolbar={
            <>
              <Input.Search
                allowClear
                defaultValue={list.query.filters.keyword}
                placeholder={t('pools.common.search')}
                aria-label={t('pools.common.search')}
                onSearch={(keyword) => list.setFilters({ keyword })}
                style={{ width: 240 }}
              />
              {canManage && (
                <Button
                  type="primary"
                  icon={<PlusOutlined />}
                  onClick={() => setEditing('new')}
                  data-testid="pool-subaccount-create"
                >
                  {t('pools.subaccount.create')}
                </Button>
              )}
            </>
          }
        />
      </Card>
      {editing && (
        <PoolSubaccountDialog
          subaccount={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </div>
  );
};
