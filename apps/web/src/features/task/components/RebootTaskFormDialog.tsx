import { groupTypeOfKind, historyIntervals, limits, type RebootKind, type RebootTask } from '@fbox/contracts';
import Select from 'antd/es/select';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from '../../../lib/store';
import { timeZoneStore } from '../../../lib/time';
import { useSaveRebootTask } from '../api-tasks';
import {
  type RebootFormValues,
  rebootFormFields,
  rebootInitialValues,
  rebootShape,
  toRebootBody,
} from '../task-form';
import { DurationInput } from './DurationInput';
import { formatDuration } from './labels';
import { type TaskField, TaskFormDialog, TaskNumberInput } from './TaskFormDialog';

const TH = 'TH/s';

/** Creates a miner or PDU reboot task, or edits `task`. Every field of spec §5 with its rule. */
export const RebootTaskFormDialog = ({
  kind,
  task,
  onClose,
}: {
  kind: RebootKind;
  task?: RebootTask;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const zone = useStore(timeZoneStore);
  const save = useSaveRebootTask();
  const [initialValues] = useState(() => rebootInitialValues(kind, task, zone, Date.now()));
  const ofKind = rebootFormFields(kind);

  const fields: TaskField<RebootFormValues>[] = [
    {
      name: 'hashrate_threshold',
      label: t('field.hashrate_threshold'),
      extra: t('task.form.hashrateHint', {
        min: limits.hashrateConditionMin,
        max: limits.hashrateConditionMax,
      }),
      input: <TaskNumberInput suffix={TH} testId="task-form-hashrate" />,
    },
    {
      name: 'duration_seconds',
      label: t('task.form.hashrateDuration'),
      extra: t('task.form.durationHint'),
      input: <DurationInput testId="task-form-duration" />,
    },
    {
      name: 'reboot_interval_seconds',
      label: t('field.reboot_interval_seconds'),
      extra: t('task.form.intervalHint'),
      input: (
        <Select<number>
          options={historyIntervals.map((seconds) => ({ value: seconds, label: formatDuration(t, seconds) }))}
          data-testid="task-form-interval"
        />
      ),
    },
    {
      name: 'reboot_limit',
      label: t('field.reboot_limit'),
      extra: t('task.form.limitHint'),
      input: <TaskNumberInput testId="task-form-limit" />,
    },
    {
      name: 'simultaneous_count',
      label: t('field.simultaneous_count'),
      extra: t('task.form.simultaneousHint'),
      input: <TaskNumberInput testId="task-form-simultaneous" />,
    },
    {
      name: 'batch_interval_seconds',
      label: t('field.batch_interval_seconds'),
      extra: t('task.form.batchIntervalHint'),
      input: <DurationInput defaultUnit="s" testId="task-form-batch-interval" />,
    },
    {
      name: 'power_off_seconds',
      label: t('field.power_off_seconds'),
      extra: t('task.form.powerOffHint'),
      input: <DurationInput secondsOnly testId="task-form-power-off" />,
    },
  ];

  const title = task
    ? t('task.form.editTitle', { name: task.name })
    : kind === 'pdu'
      ? t('task.form.createPduTitle')
      : t('task.form.createMinerTitle');

  return (
    <TaskFormDialog<RebootFormValues>
      title={title}
      formName={`rebootTaskForm-${kind}`}
      testId="reboot-task-form"
      groupType={groupTypeOfKind[kind]}
      shape={rebootShape}
      initialValues={initialValues}
      fields={fields.filter((field) => ofKind.includes(field.name))}
      saving={save.isPending}
      onSave={(values) => {
        const body = toRebootBody(kind, values, zone);
        return save.mutateAsync(task ? { id: task.id, ...body } : body);
      }}
      onClose={onClose}
    />
  );
};
