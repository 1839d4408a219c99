import { PlusOutlined } from '@ant-design/icons';
import { formatHashrate, type RebootKind, type RebootTask } from '@fbox/contracts';
import Button from 'antd/es/button';
import Tag from 'antd/es/tag';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ServerColumn, ServerTable } from '../../../components/ServerTable';
import { useStore } from '../../../lib/store';
import { formatTime, timeZoneStore } from '../../../lib/time';
import type { TaskAccess } from '../access';
import { useRebootQueue } from '../api-tasks';
import { useLocalListQuery } from '../use-local-list';
import { formatDuration } from './labels';
import { RebootTaskFormDialog } from './RebootTaskFormDialog';
import { TaskRowActions } from './TaskRowActions';
import { TaskStatusTag } from './TaskStatusTag';

/** The groups of a task as tags. */
export const GroupTags = ({ groups }: { groups: { id: number; name: string }[] }) => (
  <>
    {groups.map((group) => (
      <Tag key={group.id}>{group.name}</Tag>
    ))}
  </>
);

/** The queue of miner or PDU reboot tasks (spec §2), refreshed every 10 s. */
export const RebootQueue = ({
  kind,
  access,
  onDetail,
}: {
  kind: RebootKind;
  access: TaskAccess;
  onDetail: (task: RebootTask) => void;
}) => {
  const { t } = useTranslation();
  useStore(timeZoneStore);
  const list = useLocalListQuery();
  const tasks = useRebootQueue(kind, { page: list.query.page, limit: list.query.limit });
  const [editing, setEditing] = useState<RebootTask | 'new' | null>(null);

  const columns: ServerColumn<RebootTask>[] = [
    { key: 'name', title: t('task.form.name'), dataIndex: 'name', hideable: false, fixed: 'left' },
    {
      key: 'status',
      title: t('common.status.title'),
      render: (_, task) => <TaskStatusTag status={task.status} />,
    },
    {
      key: 'condition',
      title: t('task.queue.condition'),
      render: (_, task) =>
        t('task.queue.rebootCondition', {
          hashrate: formatHashrate(task.hashrate_threshold),
          duration: formatDuration(t, task.duration_seconds),
        }),
    },
    { key: 'groups', title: t('field.group_ids'), render: (_, task) => <GroupTags groups={task.groups} /> },
    { key: 'miner_count', title: t('task.queue.miners'), dataIndex: 'miner_count' },
    {
      key: 'action_count',
      title: t('task.queue.actions'),
      render: (_, task) => <span data-testid="task-action-count">{task.action_count}</span>,
    },
    {
      key: 'reboot_interval',
      title: t('field.reboot_interval_seconds'),
      render: (_, task) => formatDuration(t, task.reboot_interval_seconds),
    },
    { key: 'reboot_limit', title: t('field.reboot_limit'), dataIndex: 'reboot_limit' },
    {
      key: 'batch',
      title: t('task.queue.batch'),
      render: (_, task) =>
        t('task.queue.batchText', {
          count: task.simultaneous_count,
          interval: formatDuration(t, task.batch_interval_seconds),
        }),
    },
    ...(kind === 'pdu'
      ? [
          {
            key: 'power_off',
            title: t('field.power_off_seconds'),
            render: (_: unknown, task: RebootTask) =>
              task.power_off_seconds === null ? '-' : formatDuration(t, task.power_off_seconds),
          },
        ]
      : []),
    { key: 'start_at', title: t('field.start_at'), render: (_, task) => formatTime(task.start_at) },
    { key: 'end_at', title: t('field.end_at'), render: (_, task) => formatTime(task.end_at) },
    {
      key: 'last_evaluated_at',
      title: t('task.queue.lastEvaluated'),
      defaultHidden: true,
      render: (_, task) => (task.last_evaluated_at === null ? '-' : formatTime(task.last_evaluated_at)),
    },
    {
      key: 'operations',
      title: t('common.table.actions'),
      hideable: false,
      fixed: 'right',
      render: (_, task) => (
        <TaskRowActions
          task={task}
          family={{ family: 'reboot', kind }}
          access={access}
          onEdit={() => setEditing(task)}
          onDetail={() => onDetail(task)}
        />
      ),
    },
  ];

  return (
    <>
      <ServerTable<RebootTask>
        tableId={`reboot-queue-${kind}`}
        testId={`reboot-queue-${kind}`}
        columns={columns}
        list={list}
        page={tasks.data}
        loading={tasks.isFetching && !tasks.data}
        error={tasks.isError}
        onRetry={() => void tasks.refetch()}
        toolbar={
          access.manage && (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing('new')}
              data-testid="task-create"
            >
              {t('task.queue.create')}
            </Button>
          )
        }
      />
      {editing !== null && (
        <RebootTaskFormDialog
          kind={kind}
          task={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  );
};
