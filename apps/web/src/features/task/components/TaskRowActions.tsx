import type { TaskStatus, TaskTransition } from '@fbox/contracts';
import Button from 'antd/es/button';
import Popconfirm from 'antd/es/popconfirm';
import Space from 'antd/es/space';
import { useTranslation } from 'react-i18next';
import type { TaskAccess } from '../access';
import { type TaskFamily, useTaskTransition } from '../api-tasks';
import { taskRowActions } from '../task-form';

interface Props {
  task: { id: number; name: string; status: TaskStatus };
  family: TaskFamily;
  access: TaskAccess;
  onEdit: () => void;
  onDetail: () => void;
}

/**
 * A queue row's actions: Detail always; Start, Stop, Edit and Delete only where the status allows
 * them and the caller may (see taskRowActions). Start, Stop and Delete ask first (spec §4).
 */
export const TaskRowActions = ({ task, family, access, onEdit, onDetail }: Props) => {
  const { t } = useTranslation();
  const transition = useTaskTransition(family);
  const actions = taskRowActions(task.status, access);

  const confirmed = (action: TaskTransition, label: string, question: string, danger = false) => (
    <Popconfirm
      key={action}
      title={question}
      okText={label}
      cancelText={t('common.action.cancel')}
      okButtonProps={{ danger, 'data-testid': `task-${action}-ok` } as never}
      // A refusal (the status changed meanwhile) is already shown as a toast.
      onConfirm={() => transition.mutateAsync({ id: task.id, transition: action }).catch(() => undefined)}
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
