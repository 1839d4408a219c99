import { formatHashrate, type RebootKind, type RebootTask } from '@fbox/contracts';
import { useTranslation } from 'react-i18next';
import type { ServerColumn } from '../../../components/ServerTable';
import type { TaskAccess } from '../access';
import { useRebootQueue } from '../api-tasks';
import { useLocalListQuery } from '../use-local-list';
import { formatDuration } from './labels';
import { RebootTaskFormDialog } from './RebootTaskFormDialog';
import { TaskQueueTable } from './TaskQueueTable';

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
  const list = useLocalListQuery();
  const tasks = useRebootQueue(kind, { page: list.query.page, limit: list.query.limit });

  const conditionColumns: ServerColumn<RebootTask>[] = [
    {
      key: 'condition',
      title: t('task.queue.condition'),
      render: (_, task) =>
        t('task.queue.rebootCondition', {
          hashrate: formatHashrate(task.hashrate_threshold),
          duration: formatDuration(t, task.duration_seconds),
        }),
    },
  ];
  const settingColumns: ServerColumn<RebootTask>[] = [
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
  ];

  return (
    <TaskQueueTable<RebootTask>
      tableId={`reboot-queue-${kind}`}
      family={{ family: 'reboot', kind }}
      access={access}
      list={list}
      tasks={tasks}
      conditionColumns={conditionColumns}
      settingColumns={settingColumns}
      onDetail={onDetail}
      renderForm={(task, onClose) => <RebootTaskFormDialog kind={kind} task={task} onClose={onClose} />}
    />
  );
};
