import type { TempTask } from '@fbox/contracts';
import { useTranslation } from 'react-i18next';
import type { ServerColumn } from '../../../components/ServerTable';
import { showTemperature } from '../../../lib/values';
import type { TaskAccess } from '../access';
import { useTempQueue } from '../api-tasks';
import { useLocalListQuery } from '../use-local-list';
import { formatDuration, useSourceLabels } from './labels';
import { TaskQueueTable } from './TaskQueueTable';
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
  const list = useLocalListQuery();
  const tasks = useTempQueue({ page: list.query.page, limit: list.query.limit });
  const sources = useSourceLabels();

  const conditionColumns: ServerColumn<TempTask>[] = [
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
  ];

  return (
    <TaskQueueTable<TempTask>
      tableId="temp-queue"
      family={{ family: 'temp' }}
      access={access}
      list={list}
      tasks={tasks}
      conditionColumns={conditionColumns}
      onDetail={onDetail}
      renderForm={(task, onClose) => <TempTaskFormDialog task={task} onClose={onClose} />}
    />
  );
};
