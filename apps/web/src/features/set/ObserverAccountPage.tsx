import { PlusOutlined } from '@ant-design/icons';
import type { ObserverLink } from '@fbox/contracts';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Input from 'antd/es/input';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeleteButton } from '../../components/DeleteButton';
import { type ServerColumn, ServerTable } from '../../components/ServerTable';
import { formatTime } from '../../lib/time';
import { useListQuery } from '../../lib/use-list-query';
import { useDeleteObserverLink, useObserverLinks } from './api';
import { useCanManagePools } from './can-manage';
import { ExternalLink } from './components/ExternalLink';
import { ObserverLinkDialog } from './components/ObserverLinkDialog';
import styles from './set.module.css';

const filterKeys = ['keyword'] as const;

/** Observer links of the selected mine (/set/account): open a pool's observer page in a new tab. */
export const ObserverAccountPage = () => {
  const { t } = useTranslation();
  const list = useListQuery({ filterKeys });
  const links = useObserverLinks(list.query);
  const remove = useDeleteObserverLink();
  const canManage = useCanManagePools();
  const [creating, setCreating] = useState(false);

  const columns: ServerColumn<ObserverLink>[] = [
    { key: 'pool', title: t('field.pool'), dataIndex: 'pool', sortField: 'pool', hideable: false },
    { key: 'subaccount', title: t('field.subaccount'), dataIndex: 'subaccount', sortField: 'subaccount' },
    { key: 'coin', title: t('field.coin'), dataIndex: 'coin', sortField: 'coin' },
    {
      key: 'link',
      title: t('field.link'),
      render: (_, link) => <ExternalLink href={link.link} testId={`observer-link-open-${link.id}`} />,
    },
    {
      key: 'created_at',
      title: t('pools.common.createdAt'),
      sortField: 'created_at',
      render: (_, link) => formatTime(link.created_at),
    },
    ...(canManage
      ? [
          {
            key: 'actions',
            title: t('common.table.actions'),
            hideable: false,
            render: (_: unknown, link: ObserverLink) => (
              <DeleteButton
                question={t('pools.link.deleteConfirm', { pool: link.pool, subaccount: link.subaccount })}
                testId={`observer-link-delete-${link.id}`}
                onConfirm={() => remove.mutateAsync({ id: link.id })}
              />
            ),
          } satisfies ServerColumn<ObserverLink>,
        ]
      : []),
  ];

  return (
    <div className={styles.page}>
      <Card>
        <ServerTable<ObserverLink>
          tableId="observer-links"
          testId="observer-link-table"
          columns={columns}
          list={list}
          page={links.data}
          loading={links.isFetching && !links.data}
          error={links.isError}
          onRetry={() => void links.refetch()}
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
                  onClick={() => setCreating(true)}
                  data-testid="observer-link-create"
                >
                  {t('pools.link.create')}
                </Button>
              )}
            </>
          }
        />
      </Card>
      {creating && <ObserverLinkDialog onClose={() => setCreating(false)} />}
    </div>
  );
};
