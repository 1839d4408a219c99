import { PlusOutlined } from '@ant-design/icons';
import type { TempTask } from '@fbox/contracts';
import Button from 'antd/es/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ServerColumn, ServerTable } from '../../../components/ServerTable';
import { useStore } from '../../../lib/store';
import { formatTime, timeZoneStore } from '../../../lib/time';
import { showTemperature } from '../../../lib/values';
import type { TaskAccess } from '../access';
import { useTempQueue } from '../api-tasks';
import { useLocalListQuery } from '../use-local-list';
import { formatDuration, useSourceLabels } from './labels';
import { GroupTags } from './RebootQueue';
import { TaskRowActions } from './TaskRowActions';
import { TaskStatusTag } from './TaskStatusTag';
import { TempTaskFormDialog } from './TempTaskFormDialog';

/** The queue of temperature mode tasks, refreshed every 10 s. */
export const TempQueue = ({
  access,
  onDetail,
}: {
  access: TaskAccess;
  onDetail: (task: TempTask) => void;
}) => {
  const { t } = useTranslation();
  useStore(timeZoneStore);
  const list = useLocalListQuery();
  const tasks = useTempQueue({ page: list.query.page, limit: list.query.limit });
  const sources = useSourceLabels();
  const [editing, setEditing] = useState<TempTask | 'new' | null>(null);

  const columns: ServerColumn<TempTask>[] = [
    { key: 'name', title: t('task.form.name'), dataIndex: 'name', hideable: false, fixed: 'left' },
    {
      key: 'status',
      title: t('common.status.title'),
      render: (_, task) => <TaskStatusTag status={task.status} />,
    },
    { key: 'source', title: t('field.source'), render: (_, task) => sources[task.source] },
    {
      key: 'condition',
      title: t('task.queue.condition'),
      render: (_, task) =>
        t('task.queue.tempCondition', {
          temperature: showTemperature(task.threshold),
          duration: formatDuration(t, task.duration_seconds),
          back: showTemperature(task.threshold - task.hysteresis),
        }),
    },
    { key: 'groups', title: t('field.group_ids'), render: (_, task) => <GroupTags groups={task.groups} /> },
    { key: 'miner_count', title: t('task.queue.miners'), dataIndex: 'miner_count' },
    {
      key: 'action_count',
      title: t('task.queue.actions'),
      render: (_, task) => <span data-testid="task-action-count">{task.action_count}</span>,
    },
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
          family={{ family: 'temp' }}
          access={access}
          onEdit={() => setEditing(task)}
          onDetail={() => onDetail(task)}
        />
      ),
    },
  ];

  return (
    <>
      <ServerTable<TempTask>
        tableId="temp-queue"
        testId="temp-queue"
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
        <TempTaskFormDialog task={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      )}
    </>
  );
};
