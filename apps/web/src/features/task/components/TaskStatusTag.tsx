import type { TaskStatus } from '@fbox/contracts';
import Tag from 'antd/es/tag';
import { useStatusLabels } from './labels';

const colors: Record<TaskStatus, string> = {
  queued: 'blue',
  running: 'processing',
  stopped: 'warning',
  expired: 'default',
  deleted: 'error',
};

/** A task's status (spec §4) with its localized label. */
export const TaskStatusTag = ({ status }: { status: TaskStatus }) => {
  const labels = useStatusLabels();
  return (
    <Tag color={colors[status]} data-status={status} data-testid="task-status">
      {labels[status]}
    </Tag>
  );
};
