import { limits, type TempTask, tempSources } from '@fbox/contracts';
import Select from 'antd/es/select';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from '../../../lib/store';
import { timeZoneStore } from '../../../lib/time';
import { useSaveTempTask } from '../api-tasks';
import { type TempFormValues, tempInitialValues, tempShape, toTempBody } from '../task-form';
import { DurationInput } from './DurationInput';
import { useSourceLabels } from './labels';
import { type TaskField, TaskFormDialog, TaskNumberInput } from './TaskFormDialog';

const CELSIUS = '°C';

/**
 * Creates a temperature mode task, or edits `task`: above the threshold for the duration its miners
 * switch to low power, back to high at or below threshold − hysteresis.
 */
export const TempTaskFormDialog = ({ task, onClose }: { task?: TempTask; onClose: () => void }) => {
  const { t } = useTranslation();
  const zone = useStore(timeZoneStore);
  const save = useSaveTempTask();
  const sources = useSourceLabels();
  const [initialValues] = useState(() => tempInitialValues(task, zone, Date.now()));

  const fields: TaskField<TempFormValues>[] = [
    {
      name: 'source',
      label: t('field.source'),
      input: (
        <Select
          options={tempSources.map((source) => ({ value: source, label: sources[source] }))}
          data-testid="task-form-source"
        />
      ),
    },
    {
      name: 'threshold',
      label: t('task.form.threshold'),
      extra: t('task.form.thresholdHint', { min: limits.temperatureMin }),
      input: <TaskNumberInput suffix={CELSIUS} testId="task-form-threshold" />,
    },
    {
      name: 'duration_seconds',
      label: t('task.form.tempDuration'),
      extra: t('task.form.tempDurationHint'),
      input: <DurationInput testId="task-form-duration" />,
    },
    {
      name: 'hysteresis',
      label: t('field.hysteresis'),
      extra: t('task.form.hysteresisHint'),
      input: <TaskNumberInput suffix={CELSIUS} testId="task-form-hysteresis" />,
    },
  ];

  return (
    <TaskFormDialog<TempFormValues>
      title={task ? t('task.form.editTitle', { name: task.name }) : t('task.form.createTempTitle')}
      formName="tempTaskForm"
      testId="temp-task-form"
      groupType="temp_mode"
      shape={tempShape}
      initialValues={initialValues}
      fields={fields}
      saving={save.isPending}
      onSave={(values) => {
        const body = toTempBody(values, zone);
        return save.mutateAsync(task ? { id: task.id, ...body } : body);
      }}
      onClose={onClose}
    />
  );
};
