import { formatHashrate, type GroupMiner, groupTypes } from '@fbox/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Empty from 'antd/es/empty';
import Modal from 'antd/es/modal';
import Space from 'antd/es/space';
import Spin from 'antd/es/spin';
import Tag from 'antd/es/tag';
import { type Key, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { type ServerColumn, ServerTable } from '../../components/ServerTable';
import { StatusTag } from '../../components/StatusTag';
import { tableQueryProps } from '../../components/table-query';
import { toast } from '../../lib/feedback';
import { useListQuery } from '../../lib/use-list-query';
import { useTaskAccess } from './access';
import { countGroupMiners, useGroup, useGroupMembers, useGroupMiners } from './api-groups';
import { GroupMinerFilters, groupMinerFilterKeys, matchingFilter } from './components/GroupMinerFilters';
import { useGroupTypeLabels } from './components/labels';

/**
 * One group's miners (/task/groupEdit?id=&type=): a server-paged picker over the mine's miners with
 * filters and membership; managers add or remove the selected rows, or every miner the filter
 * matches after a confirmation that says how many.
 */
export const GroupEditPage = () => {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const id = Number(search.get('id')) || 0;
  const type = groupTypes.find((candidate) => candidate === search.get('type'));
  const access = useTaskAccess();
  const group = useGroup(type, id);
  const list = useListQuery({ filterKeys: groupMinerFilterKeys });
  const miners = useGroupMiners(group.data ? id : 0, list.query);
  const members = useGroupMembers();
  const typeLabels = useGroupTypeLabels();
  const [modal, holder] = Modal.useModal();
  const [selected, setSelected] = useState<Key[]>([]);

  if (id <= 0 || !type)
    return (
      <Card>
        <Empty description={t('task.groupEdit.noGroup')}>
          <Link to="/task/groups">{t('task.groupEdit.back')}</Link>
        </Empty>
      </Card>
    );
  if (group.isPending) return <Spin />;
  if (!group.data)
    return (
      <Card>
        <Empty description={t('task.groupEdit.notFound')}>
          <Link to={`/task/groups?type=${type}`}>{t('task.groupEdit.back')}</Link>
        </Empty>
      </Card>
    );

  const filter = matchingFilter(list.query.filters);
  const change = async (op: 'add' | 'remove', body: { miner_ids?: number[]; all_matching?: boolean }) => {
    try {
      await members.mutateAsync({ op, group_id: id, ...body, ...(body.all_matching ? { filter } : {}) });
      setSelected([]);
    } catch {
      // Refusals (a group too large …) are shown as a toast; the selection stays for another try.
    }
  };

  const name = group.data.name;
  const allMatching = async (op: 'add' | 'remove') => {
    const count = await countGroupMiners(id, op === 'add' ? 'out' : 'in', filter).catch(() => null);
    if (count === null) return;
    if (count === 0) {
      void toast(
        'info',
        op === 'add' ? t('task.groupEdit.nothingToAdd') : t('task.groupEdit.nothingToRemove'),
        2,
      );
      return;
    }
    void modal.confirm({
      title: op === 'add' ? t('task.groupEdit.addAll') : t('task.groupEdit.removeAll'),
      content:
        op === 'add'
          ? t('task.groupEdit.addAllConfirm', { count, name })
          : t('task.groupEdit.removeAllConfirm', { count, name }),
      okText: t('common.action.ok'),
      cancelText: t('common.action.cancel'),
      okButtonProps: { danger: op === 'remove', 'data-testid': 'group-confirm-ok' } as never,
      onOk: () => change(op, { all_matching: true }),
    });
  };

  const columns: ServerColumn<GroupMiner>[] = [
    { key: 'worker', title: t('field.worker'), dataIndex: 'worker', hideable: false, fixed: 'left' },
    {
      key: 'in_group',
      title: t('task.groupEdit.membership'),
      render: (_, miner) =>
        miner.in_group ? (
          <Tag color="blue" data-testid="miner-in-group">
            {t('task.groupEdit.memberIn')}
          </Tag>
        ) : (
          <Tag>{t('task.groupEdit.memberOut')}</Tag>
        ),
    },
    { key: 'sn', title: t('field.sn'), dataIndex: 'sn' },
    { key: 'ip', title: t('field.ip'), dataIndex: 'ip' },
    { key: 'model', title: t('field.model'), dataIndex: 'model' },
    { key: 'fbox_name', title: t('field.fbox_name'), dataIndex: 'fbox_name' },
    { key: 'tank_name', title: t('field.tank_name'), render: (_, miner) => miner.tank_name ?? '-' },
    { key: 'status', title: t('field.status'), render: (_, miner) => <StatusTag status={miner.status} /> },
    {
      key: 'hashrate_realtime',
      title: t('task.groupEdit.hashrate'),
      render: (_, miner) => formatHashrate(miner.hashrate_realtime),
    },
  ];

  const ids = selected.map(Number);
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      {holder}
      <Card>
        <Descriptions
          column={{ xs: 1, md: 3 }}
          items={[
            {
              key: 'name',
              label: t('task.group.name'),
              children: <span data-testid="group-name">{group.data.name}</span>,
            },
            { key: 'type', label: t('field.type'), children: typeLabels[type] },
            {
              key: 'count',
              label: t('task.group.minerCount'),
              children: <span data-testid="group-miner-count">{group.data.miner_count}</span>,
            },
          ]}
        />
        {!access.manage && <Alert type="info" showIcon title={t('task.groupEdit.readOnly')} />}
      </Card>
      <Card>
        {access.manage && (
          <Space wrap style={{ marginBottom: 12 }}>
            <Button
              type="primary"
              disabled={ids.length === 0}
              loading={members.isPending}
              onClick={() => void change('add', { miner_ids: ids })}
              data-testid="group-add-selected"
            >
              {t('task.groupEdit.addSelected', { count: ids.length })}
            </Button>
            <Button
              disabled={ids.length === 0}
              loading={members.isPending}
              onClick={() => void change('remove', { miner_ids: ids })}
              data-testid="group-remove-selected"
            >
              {t('task.groupEdit.removeSelected', { count: ids.length })}
            </Button>
            <Button onClick={() => void allMatching('add')} data-testid="group-add-all">
              {t('task.groupEdit.addAll')}
            </Button>
            <Button danger onClick={() => void allMatching('remove')} data-testid="group-remove-all">
              {t('task.groupEdit.removeAll')}
            </Button>
          </Space>
        )}
        <ServerTable<GroupMiner>
          tableId="group-miners"
          testId="group-miner-table"
          columns={columns}
          list={list}
          {...tableQueryProps(miners)}
          selection={access.manage ? { keys: selected, onChange: setSelected } : undefined}
          toolbar={<GroupMinerFilters list={list} />}
        />
      </Card>
    </Space>
  );
};
