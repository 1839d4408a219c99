import {
  type AlertLevel,
  type AlertMetric,
  type AlertRule,
  AlertRuleFieldsSchema,
  type AlertTarget,
  alertLevels,
  alertMetricNames,
  alertMetrics,
} from '@fbox/contracts';
import Form from 'antd/es/form';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../components/FormModal';
import { NumberInput } from '../../components/NumberInput';
import { formSchemaRule } from '../../lib/form-rules';
import { showServerErrors } from '../../lib/server-errors';
import { useSaveAlertRule } from './api';
import { unitOf } from './metric-units';

interface RuleValues {
  metric: AlertMetric;
  level: AlertLevel;
  threshold?: number | null;
  threshold_max?: number | null;
  sustain_seconds: number | null;
  hysteresis?: number | null;
  enabled: boolean;
}

const metricsOf = (target: AlertTarget) => alertMetricNames.filter((m) => alertMetrics[m].target === target);

/** What a new rule of a target starts with: its first metric, minor, one minute. */
const blank = (target: AlertTarget): RuleValues => ({
  metric: metricsOf(target)[0]!,
  level: 3,
  sustain_seconds: 60,
  hysteresis: 0,
  enabled: true,
});

/**
 * Adds a rule for one target, or edits one: what it watches, how bad, the threshold (and upper
 * limit for a range) in the metric's unit, how long the condition must hold, and the recovery
 * margin. The fields a state metric has no use for are not shown; the contract checks them
 * together, as the server does.
 */
export const AlertRuleDialog = ({
  target,
  rule,
  onClose,
}: {
  target: AlertTarget;
  rule: AlertRule | null;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<RuleValues>();
  const save = useSaveAlertRule();
  const metric: AlertMetric = Form.useWatch('metric', form) ?? rule?.metric ?? blank(target).metric;
  const { comparison } = alertMetrics[metric];
  const unit = unitOf(metric);
  const onFinish = async (values: RuleValues) => {
    try {
      await save.mutateAsync({ ...values, ...(rule ? { id: rule.id } : {}) });
      onClose();
    } catch (error) {
      showServerErrors(form, error);
    }
  };
  const rulesOf = (field: keyof RuleValues, label: string) => [
    formSchemaRule(AlertRuleFieldsSchema, field, { label }),
  ];
  const together = ['metric', 'threshold', 'threshold_max'];
  return (
    <FormModal
      open
      title={rule ? t('alarm.rules.editTitle') : t('alarm.rules.addTitle')}
      form={form}
      saving={save.isPending}
      onClose={onClose}
    >
      <Form
        form={form}
        name="alertRule"
        layout="vertical"
        onFinish={onFinish}
        initialValues={rule ?? blank(target)}
        data-testid="alert-rule-form"
      >
        <Form.Item name="metric" label={t('field.metric')} required>
          <Select
            disabled={rule !== null}
            options={metricsOf(target).map((m) => ({ value: m, label: t(`alertMetric.${m}`) }))}
            data-testid="alert-rule-metric"
          />
        </Form.Item>
        <Form.Item name="level" label={t('field.alertLevel')} required>
          <Select
            options={alertLevels.map((level) => ({
              value: level,
              label: t(`alertLevel.${level}` as 'alertLevel.1'),
            }))}
            data-testid="alert-rule-level"
          />
        </Form.Item>
        {comparison !== 'state' && (
          <Form.Item
            name="threshold"
            label={comparison === 'outside' ? t('alarm.rules.lowest') : t('alarm.rules.threshold')}
            required
            dependencies={together}
            rules={rulesOf('threshold', t('alarm.rules.threshold'))}
            extra={t(`alarm.rules.hint.${comparison}`)}
          >
            <NumberInput suffix={unit} style={{ width: '100%' }} data-testid="alert-rule-threshold" />
          </Form.Item>
        )}
        {comparison === 'outside' && (
          <Form.Item
            name="threshold_max"
            label={t('alarm.rules.highest')}
            required
            dependencies={together}
            rules={rulesOf('threshold_max', t('alarm.rules.highest'))}
          >
            <NumberInput suffix={unit} style={{ width: '100%' }} data-testid="alert-rule-threshold-max" />
          </Form.Item>
        )}
        <Form.Item
          name="sustain_seconds"
          label={t('alarm.rules.sustain')}
          required
          rules={rulesOf('sustain_seconds', t('alarm.rules.sustain'))}
          extra={t('alarm.rules.sustainHint')}
        >
          <NumberInput
            suffix={t('alarm.rules.seconds')}
            style={{ width: '100%' }}
            data-testid="alert-rule-sustain"
          />
        </Form.Item>
        {comparison !== 'state' && (
          <Form.Item
            name="hysteresis"
            label={t('alarm.rules.hysteresis')}
            rules={rulesOf('hysteresis', t('alarm.rules.hysteresis'))}
            extra={t('alarm.rules.hysteresisHint')}
          >
            <NumberInput suffix={unit} style={{ width: '100%' }} data-testid="alert-rule-hysteresis" />
          </Form.Item>
        )}
        <Form.Item name="enabled" label={t('alarm.rules.enabled')} valuePropName="checked">
          <Switch data-testid="alert-rule-enabled" />
        </Form.Item>
      </Form>
    </FormModal>
  );
};
