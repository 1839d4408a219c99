import { limits, type TempTask, tempSources } from '@fbox/contracts';
import Col from 'antd/es/col';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Modal from 'antd/es/modal';
import Row from 'antd/es/row';
import Select from 'antd/es/select';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api';
import { applyFieldErrors } from '../../../lib/form-rules';
import { useStore } from '../../../lib/store';
import { timeZoneStore } from '../../../lib/time';
import { useSaveTempTask } from '../api-tasks';
import {
  fieldRules,
  groupRules,
  type TempFormValues,
  tempInitialValues,
  tempShape,
  toTempBody,
} from '../task-form';
import { DurationInput } from './DurationInput';
import { GroupSelect } from './GroupSelect';
import { useSourceLabels } from './labels';
import { topLevelErrors } from './server-errors';
import { TaskWindowFields } from './TaskWindowFields';

const CELSIUS = '°C';

/**
 * Creates a temperature mode task, or edits `task`: above the threshold for the duration its miners
 * switch to low power, back to high at or below threshold − hysteresis.
 */
export const TempTaskFormDialog = ({ task, onClose }: { task?: TempTask; onClose: () => void }) => {
  const { t } = useTranslation();
  const zone = useStore(timeZoneStore);
  const [form] = Form.useForm<TempFormValues>();
  const save = useSaveTempTask();
  const sources = useSourceLabels();
  const [initialValues] = useState(() => tempInitialValues(task, zone, Date.now()));

  const label = {
    name: t('task.form.name'),
    group_ids: t('field.group_ids'),
    source: t('field.source'),
    threshold: t('task.form.threshold'),
    duration_seconds: t('task.form.tempDuration'),
    hysteresis: t('field.hysteresis'),
    start_at: t('field.start_at'),
    end_at: t('field.end_at'),
  } satisfies Record<keyof TempFormValues, string>;

  const rules = (name: Exclude<keyof TempFormValues, 'start_at' | 'end_at'>) =>
    name === 'group_ids'
      ? groupRules(tempShape.group_ids, label.group_ids)
      : fieldRules(tempShape[name], label[name]);

  const onFinish = async (values: TempFormValues) => {
    const body = toTempBody(values, zone);
    try {
      await save.mutateAsync(task ? { id: task.id, ...body } : body);
      onClose();
    } catch (error) {
      if (error instanceof ApiError) applyFieldErrors(form, topLevelErrors(error.fieldErrors));
    }
  };

  return (
    <Modal
      open
      title={task ? t('task.form.editTitle', { name: task.name }) : t('task.form.createTempTitle')}
      okText={t('common.action.save')}
      cancelText={t('common.action.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      maskClosable={false}
      destroyOnHidden
      width={760}
      okButtonProps={{ 'data-testid': 'task-form-save' } as never}
    >
      <Form<TempFormValues>
        form={form}
        name="tempTaskForm"
        layout="vertical"
        initialValues={initialValues}
        onFinish={onFinish}
        data-testid="temp-task-form"
      >
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="name" label={label.name} rules={rules('name')}>
              <Input maxLength={limits.taskNameMax} showCount autoFocus data-testid="task-form-name" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="group_ids" label={label.group_ids} rules={rules('group_ids')} required>
              <GroupSelect type="temp_mode" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="source" label={label.source} rules={rules('source')}>
              <Select
                options={tempSources.map((source) => ({ value: source, label: sources[source] }))}
                data-testid="task-form-source"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="threshold"
              label={label.threshold}
              rules={rules('threshold')}
              extra={t('task.form.thresholdHint', { min: limits.temperatureMin })}
            >
              <InputNumber<number>
                min={limits.temperatureMin}
                suffix={CELSIUS}
                style={{ width: '100%' }}
                data-testid="task-form-threshold"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="duration_seconds"
              label={label.duration_seconds}
              rules={rules('duration_seconds')}
              extra={t('task.form.tempDurationHint')}
            >
              <DurationInput testId="task-form-duration" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="hysteresis"
              label={label.hysteresis}
              rules={rules('hysteresis')}
              extra={t('task.form.hysteresisHint')}
            >
              <InputNumber<number>
                min={0.5}
                max={20}
                step={0.5}
                suffix={CELSIUS}
                style={{ width: '100%' }}
                data-testid="task-form-hysteresis"
              />
            </Form.Item>
          </Col>
          <TaskWindowFields />
        </Row>
        {/* Enter in a field saves, as the OK button does (the modal's buttons are outside the form). */}
        <button type="submit" hidden />
      </Form>
    </Modal>
  );
};
