import type { ObserverLink } from '@fbox/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeleteButton } from '../../components/DeleteButton';
import type { ServerColumn } from '../../components/ServerTable';
import { formatTime } from '../../lib/time';
import { useDeleteObserverLink, useObserverLinks } from './api';
import { ExternalLink } from './components/ExternalLink';
import { ObserverLinkDialog } from './components/ObserverLinkDialog';
import { PoolAccountTable, usePoolListQuery } from './components/PoolAccountTable';

/** Observer links of the selected mine (/set/account): open a pool's observer page in a new tab. */
export const ObserverAccountPage = () => {
  const { t } = useTranslation();
  const list = usePoolListQuery();
  const links = useObserverLinks(list.query);
  const remove = useDeleteObserverLink();
  const [creating, setCreating] = useState(false);

  const columns: ServerColumn<ObserverLink>[] = [
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
  ];

  return (
    <PoolAccountTable<ObserverLink>
      tableId="observer-links"
      testId="observer-link-table"
      list={list}
      rows={links}
      columns={columns}
      rowActions={(link) => (
        <DeleteButton
          question={t('pools.link.deleteConfirm', { pool: link.pool, subaccount: link.subaccount })}
          testId={`observer-link-delete-${link.id}`}
          onConfirm={() => remove.mutateAsync({ id: link.id })}
        />
      )}
      create={{
        label: t('pools.link.create'),
        testId: 'observer-link-create',
        onClick: () => setCreating(true),
      }}
    >
      {creating && <ObserverLinkDialog onClose={() => setCreating(false)} />}
    </PoolAccountTable>
  );
};
