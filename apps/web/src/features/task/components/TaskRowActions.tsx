import type { TaskStatus, TaskTransition } from '@fbox/contracts';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Popconfirm from 'antd/es/popconfirm';
import Space from 'antd/es/space';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TaskAccess } from '../access';
import { type TaskFamily, useTaskTransition } from '../api-tasks';
import { taskRowActions } from '../task-form';

interface Props {
  /** `switched_low_count`: temperature tasks, the miners they left in low power mode. */
  task: { id: number; name: string; status: TaskStatus; switched_low_count?: number };
  family: TaskFamily;
  access: TaskAccess;
  onEdit: () => void;
  onDetail: () => void;
}

/**
 * A queue row's actions: Detail always; Start, Stop, Edit and Delete only where the status allows
 * them and the caller may (see taskRowActions). Start, Stop and Delete ask first (spec §4). Stopping
 * or deleting a temperature task that left miners in low power mode says so and offers to switch
 * them back to high.
 */
export const TaskRowActions = ({ task, family, access, onEdit, onDetail }: Props) => {
  const { t } = useTranslation();
  const transition = useTaskTransition(family);
  const actions = taskRowActions(task.status, access);
  const switchedLow = family.family === 'temp' ? (task.switched_low_count ?? 0) : 0;
  // Unchecked at every opening: the task switched these miners to low because they ran hot, and
  // they may still be hot; back to high is a choice the user makes, never a default they overlook.
  const [restore, setRestore] = useState(false);

  const switchBack = (action: TaskTransition) =>
    action !== 'start' && switchedLow > 0 ? (
      <Space orientation="vertical" size={4}>
        <span data-testid={`task-${action}-switched-low`}>
          {t('task.confirm.switchedLow', { count: switchedLow })}
        </span>
        <Checkbox
          checked={restore}
          onChange={(event) => setRestore(event.target.checked)}
          data-testid={`task-${action}-restore`}
        >
          {t('task.confirm.restore', { count: switchedLow })}
        </Checkbox>
      </Space>
    ) : undefined;

  const confirmed = (action: TaskTransition, label: string, question: string, danger = false) => (
    <Popconfirm
      key={action}
      title={question}
      description={switchBack(action)}
      okText={label}
      cancelText={t('common.action.cancel')}
      okButtonProps={{ danger, 'data-testid': `task-${action}-ok` } as never}
      onOpenChange={(open) => {
        if (open) setRestore(false);
      }}
      // A refusal (the status changed meanwhile) is already shown as a toast.
      onConfirm={() =>
        transition
          .mutateAsync({ id: task.id, transition: action, restore: switchedLow > 0 && restore })
          .catch(() => undefined)
      }
    >
      <Button type="link" size="small" danger={danger} data-testid={`task-${action}`}>
        {label}
      </Button>
    </Popconfirm>
  );

  return (
    <Space size={0} wrap>
      <Button type="link" size="small" onClick={onDetail} data-testid="task-detail">
        {t('task.action.detail')}
      </Button>
      {actions.includes('start') &&
        confirmed('start', t('task.action.start'), t('task.confirm.start', { name: task.name }))}
      {actions.includes('stop') &&
        confirmed('stop', t('task.action.stop'), t('task.confirm.stop', { name: task.name }))}
      {actions.includes('edit') && (
        <Button type="link" size="small" onClick={onEdit} data-testid="task-edit">
          {t('common.action.edit')}
        </Button>
      )}
      {actions.includes('delete') &&
        confirmed('delete', t('common.action.delete'), t('task.confirm.delete', { name: task.name }), true)}
    </Space>
  );
};
