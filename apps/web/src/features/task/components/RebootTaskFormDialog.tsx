import { groupTypeOfKind, historyIntervals, limits, type RebootKind, type RebootTask } from '@fbox/contracts';
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
import { useSaveRebootTask } from '../api-tasks';
import {
  fieldRules,
  groupRules,
  type RebootFormValues,
  rebootFormFields,
  rebootInitialValues,
  rebootShape,
  toRebootBody,
} from '../task-form';
import { DurationInput } from './DurationInput';
import { GroupSelect } from './GroupSelect';
import { formatDuration } from './labels';
import { topLevelErrors } from './server-errors';
import { TaskWindowFields } from './TaskWindowFields';

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
  const [form] = Form.useForm<RebootFormValues>();
  const save = useSaveRebootTask();
  const [initialValues] = useState(() => rebootInitialValues(kind, task, zone, Date.now()));
  const fields = rebootFormFields(kind);

  const label = {
    name: t('task.form.name'),
    group_ids: t('field.group_ids'),
    hashrate_threshold: t('field.hashrate_threshold'),
    duration_seconds: t('task.form.hashrateDuration'),
    reboot_interval_seconds: t('field.reboot_interval_seconds'),
    reboot_limit: t('field.reboot_limit'),
    simultaneous_count: t('field.simultaneous_count'),
    batch_interval_seconds: t('field.batch_interval_seconds'),
    power_off_seconds: t('field.power_off_seconds'),
    start_at: t('field.start_at'),
    end_at: t('field.end_at'),
  } satisfies Record<keyof RebootFormValues, string>;

  const rules = (name: Exclude<keyof RebootFormValues, 'start_at' | 'end_at'>) =>
    name === 'group_ids'
      ? groupRules(rebootShape.group_ids, label.group_ids)
      : fieldRules(rebootShape[name], label[name]);

  const onFinish = async (values: RebootFormValues) => {
    const body = toRebootBody(kind, values, zone);
    try {
      await save.mutateAsync(task ? { id: task.id, ...body } : body);
      onClose();
    } catch (error) {
      if (error instanceof ApiError) applyFieldErrors(form, topLevelErrors(error.fieldErrors));
    }
  };

  const title = task
    ? t('task.form.editTitle', { name: task.name })
    : kind === 'pdu'
      ? t('task.form.createPduTitle')
      : t('task.form.createMinerTitle');

  return (
    <Modal
      open
      title={title}
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
      <Form<RebootFormValues>
        form={form}
        name={`rebootTaskForm-${kind}`}
        layout="vertical"
        initialValues={initialValues}
        onFinish={onFinish}
        data-testid="reboot-task-form"
      >
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="name" label={label.name} rules={rules('name')}>
              <Input maxLength={limits.taskNameMax} showCount autoFocus data-testid="task-form-name" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="group_ids" label={label.group_ids} rules={rules('group_ids')} required>
              <GroupSelect type={groupTypeOfKind[kind]} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="hashrate_threshold"
              label={label.hashrate_threshold}
              rules={rules('hashrate_threshold')}
              extra={t('task.form.hashrateHint', {
                min: limits.hashrateConditionMin,
                max: limits.hashrateConditionMax,
              })}
            >
              <InputNumber<number>
                min={limits.hashrateConditionMin}
                max={limits.hashrateConditionMax}
                suffix={TH}
                style={{ width: '100%' }}
                data-testid="task-form-hashrate"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="duration_seconds"
              label={label.duration_seconds}
              rules={rules('duration_seconds')}
              extra={t('task.form.durationHint')}
            >
              <DurationInput testId="task-form-duration" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="reboot_interval_seconds"
              label={label.reboot_interval_seconds}
              rules={rules('reboot_interval_seconds')}
              extra={t('task.form.intervalHint')}
            >
              <Select<number>
                options={historyIntervals.map((seconds) => ({
                  value: seconds,
                  label: formatDuration(t, seconds),
                }))}
                data-testid="task-form-interval"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="reboot_limit"
              label={label.reboot_limit}
              rules={rules('reboot_limit')}
              extra={t('task.form.limitHint')}
            >
              <InputNumber<number>
                min={limits.rebootCountMin}
                precision={0}
                style={{ width: '100%' }}
                data-testid="task-form-limit"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="simultaneous_count"
              label={label.simultaneous_count}
              rules={rules('simultaneous_count')}
              extra={t('task.form.simultaneousHint')}
            >
              <InputNumber<number>
                min={1}
                precision={0}
                style={{ width: '100%' }}
                data-testid="task-form-simultaneous"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="batch_interval_seconds"
              label={label.batch_interval_seconds}
              rules={rules('batch_interval_seconds')}
              extra={t('task.form.batchIntervalHint')}
            >
              <DurationInput defaultUnit="s" testId="task-form-batch-interval" />
            </Form.Item>
          </Col>
          {fields.includes('power_off_seconds') && (
            <Col xs={24} md={12}>
              <Form.Item
                name="power_off_seconds"
                label={label.power_off_seconds}
                rules={rules('power_off_seconds')}
                extra={t('task.form.powerOffHint')}
              >
                <DurationInput secondsOnly testId="task-form-power-off" />
              </Form.Item>
            </Col>
          )}
        </Row>
        <Row gutter={16}>
          <TaskWindowFields />
        </Row>
        {/* Enter in a field saves, as the OK button does (the modal's buttons are outside the form). */}
        <button type="submit" hidden />
      </Form>
    </Modal>
  );
};
