import type { TaskStatus } from '@fbox/contracts';
import Tag from 'antd/es/tag';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CreateButton } from '../../../components/CreateButton';
import { type ServerColumn, ServerTable } from '../../../components/ServerTable';
import { type TableQuery, tableQueryProps } from '../../../components/table-query';
import { useStore } from '../../../lib/store';
import { formatTime, timeZoneStore } from '../../../lib/time';
import type { ListQueryState } from '../../../lib/use-list-query';
import type { TaskAccess } from '../access';
import type { TaskFamily } from '../api-tasks';
import { TaskRowActions } from './TaskRowActions';
import { TaskStatusTag } from './TaskStatusTag';

/** What a queue shows of every task, whatever its kind. */
interface QueueTask {
  id: number;
  name: string;
  status: TaskStatus;
  groups: { id: number; name: string }[];
  miner_count: number;
  action_count: number;
  start_at: number;
  end_at: number;
  last_evaluated_at: number | null;
}

/** The groups of a task as tags. */
const GroupTags = ({ groups }: { groups: { id: number; name: string }[] }) => (
  <>
    {groups.map((group) => (
      <Tag key={group.id}>{group.name}</Tag>
    ))}
  </>
);

interface Props<T extends QueueTask> {
  /** Names the table (column chooser) and is its test id. */
  tableId: string;
  family: TaskFamily;
  access: TaskAccess;
  list: ListQueryState;
  tasks: TableQuery<T>;
  /** The kind's own columns: what it watches (before the groups) and how it acts (after the counts). */
  conditionColumns: ServerColumn<T>[];
  settingColumns?: ServerColumn<T>[];
  onDetail: (task: T) => void;
  /** The kind's form dialog: a new task when `task` is undefined, else an edit. */
  renderForm: (task: T | undefined, onClose: () => void) => ReactNode;
}

/**
 * A queue of tasks of one kind: name, status, the kind's columns, groups, counts, window and the row
 * actions, with Create above it for those who may manage tasks.
 */
export const TaskQueueTable = <T extends QueueTask>({
  tableId,
  family,
  access,
  list,
  tasks,
  conditionColumns,
  settingColumns = [],
  onDetail,
  renderForm,
}: Props<T>) => {
  const { t } = useTranslation();
  useStore(timeZoneStore);
  const [editing, setEditing] = useState<T | 'new' | null>(null);

  const columns: ServerColumn<T>[] = [
    { key: 'name', title: t('task.form.name'), dataIndex: 'name', hideable: false, fixed: 'left' },
    {
      key: 'status',
      title: t('common.status.title'),
      render: (_, task) => <TaskStatusTag status={task.status} />,
    },
    ...conditionColumns,
    { key: 'groups', title: t('field.group_ids'), render: (_, task) => <GroupTags groups={task.groups} /> },
    { key: 'miner_count', title: t('task.queue.miners'), dataIndex: 'miner_count' },
    {
      key: 'action_count',
      title: t('task.queue.actions'),
      render: (_, task) => <span data-testid="task-action-count">{task.action_count}</span>,
    },
    ...settingColumns,
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
          family={family}
          access={access}
          onEdit={() => setEditing(task)}
          onDetail={() => onDetail(task)}
        />
      ),
    },
  ];

  return (
    <>
      <ServerTable<T>
        tableId={tableId}
        testId={tableId}
        columns={columns}
        list={list}
        {...tableQueryProps(tasks)}
        toolbar={
          access.manage && (
            <CreateButton
              label={t('task.queue.create')}
              testId="task-create"
              onClick={() => setEditing('new')}
            />
          )
        }
      />
      {editing !== null && renderForm(editing === 'new' ? undefined : editing, () => setEditing(null))}
    </>
  );
};
