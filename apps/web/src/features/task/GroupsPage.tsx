import { type GroupType, groupTypes, type MinerGroup } from '@fbox/contracts';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Space from 'antd/es/space';
import Tabs from 'antd/es/tabs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { CreateButton } from '../../components/CreateButton';
import { DeleteButton } from '../../components/DeleteButton';
import { KeywordSearch } from '../../components/KeywordSearch';
import { type ServerColumn, ServerTable } from '../../components/ServerTable';
import { tableQueryProps } from '../../components/table-query';
import { useStore } from '../../lib/store';
import { formatTime, timeZoneStore } from '../../lib/time';
import { useListQuery } from '../../lib/use-list-query';
import { useTaskAccess } from './access';
import { useDeleteGroup, useGroupList } from './api-groups';
import { GroupFormDialog } from './components/GroupFormDialog';
import { useGroupTypeLabels } from './components/labels';

const filterKeys = ['keyword'] as const;

export const groupEditPath = (group: { id: number; type: GroupType }) =>
  `/task/groupEdit?id=${group.id}&type=${group.type}`;

/**
 * Miner groups (/task/groups), one tab per task type (spec §3: groups are separate per type):
 * searchable, server-paged; managers create, rename and delete (the server refuses a group in use).
 */
export const GroupsPage = () => {
  const { t } = useTranslation();
  useStore(timeZoneStore);
  const access = useTaskAccess();
  const list = useListQuery({ filterKeys });
  const typeLabels = useGroupTypeLabels();
  const [search, setSearch] = useSearchParams();
  const wanted = search.get('type');
  const type: GroupType = groupTypes.find((candidate) => candidate === wanted) ?? 'miner_reboot';
  const groups = useGroupList(type, list.query);
  const remove = useDeleteGroup();
  const [editing, setEditing] = useState<MinerGroup | 'new' | null>(null);

  const columns: ServerColumn<MinerGroup>[] = [
    {
      key: 'name',
      title: t('task.group.name'),
      hideable: false,
      fixed: 'left',
      render: (_, group) => (
        <Link to={groupEditPath(group)} data-testid="group-open">
          {group.name}
        </Link>
      ),
    },
    { key: 'miner_count', title: t('task.group.minerCount'), dataIndex: 'miner_count' },
    { key: 'task_count', title: t('task.group.taskCount'), dataIndex: 'task_count' },
    {
      key: 'updated_at',
      title: t('task.group.updatedAt'),
      render: (_, group) => formatTime(group.updated_at),
    },
    {
      key: 'operations',
      title: t('common.table.actions'),
      hideable: false,
      fixed: 'right',
      render: (_, group) => (
        <Space>
          <Link to={groupEditPath(group)}>
            {access.manage ? t('task.group.editMiners') : t('task.group.viewMiners')}
          </Link>
          {access.manage && (
            <>
              <Button onClick={() => setEditing(group)} data-testid="group-rename">
                {t('task.group.rename')}
              </Button>
              <DeleteButton
                question={t('task.group.deleteConfirm', { name: group.name })}
                testId="group-delete"
                // The server's refusal (a group in use) is already shown as a toast.
                onConfirm={() => remove.mutateAsync({ id: group.id }).catch(() => undefined)}
              />
            </>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card>
      <Tabs
        activeKey={type}
        // A new type is a new list: page 1, no search.
        onChange={(key) => setSearch({ type: key })}
        items={groupTypes.map((key) => ({
          key,
          label: <span data-testid={`group-type-${key}`}>{typeLabels[key]}</span>,
        }))}
      />
      <ServerTable<MinerGroup>
        key={type}
        tableId="miner-groups"
        testId="group-table"
        columns={columns}
        list={list}
        {...tableQueryProps(groups)}
        toolbar={
          <>
            <KeywordSearch list={list} placeholder={t('task.group.search')} testId="group-search" />
            {access.manage && (
              <CreateButton
                label={t('task.group.create')}
                testId="group-create"
                onClick={() => setEditing('new')}
              />
            )}
          </>
        }
      />
      {editing !== null && (
        <GroupFormDialog
          type={type}
          group={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </Card>
  );
};
