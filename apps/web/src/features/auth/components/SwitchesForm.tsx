import { intInRange, limits, type UserInfo } from '@fbox/contracts';
import { useQueryClient } from '@tanstack/react-query';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Space from 'antd/es/space';
import Switch from 'antd/es/switch';
import { useTranslation } from 'react-i18next';
import { NumberInput } from '../../../components/NumberInput';
import { localizeRule, schemaRule } from '../../../lib/form-rules';
import { showServerErrors } from '../../../lib/server-errors';
import { fboxConfigKeys, OverclockPolicyNote } from '../../fbox-config';
import { useSetUserInfo } from '../api';

interface SwitchValues {
  auto_frequency: boolean;
  min: number;
  max: number;
  pool_config_status: boolean;
  delay_switch_value: number;
}

/** `global_config` is JSON text; a broken one reads as the default 0 ms. */
const readDelay = (globalConfig: string): number => {
  try {
    const value = Number((JSON.parse(globalConfig) as { delay_switch_value?: unknown }).delay_switch_value);
    return Number.isFinite(value) ? value : limits.delaySwitchMin;
  } catch {
    return limits.delaySwitchMin;
  }
};

const toValues = (user: UserInfo): SwitchValues => ({
  auto_frequency: user.auto_frequency === 1,
  min: user.auto_frequency_config.min,
  max: user.auto_frequency_config.max,
  pool_config_status: user.pool_config.status === 1,
  delay_switch_value: readDelay(user.global_config),
});

const frequency = intInRange(limits.autoFrequencyMin, limits.autoFrequencyMax);
const delay = intInRange(limits.delaySwitchMin, limits.delaySwitchMax);

/** Auto Overclock (with its range), Lock Pool and Delay Switch. */
export const SwitchesForm = ({ user }: { user: UserInfo }) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<SwitchValues>();
  const setUserInfo = useSetUserInfo();
  const autoOn = Form.useWatch('auto_frequency', form);
  const queryClient = useQueryClient();
  // The switches govern the master's mines: sub-accounts see them read-only.
  const readOnly = user.is_masterID !== 1;

  const onFinish = async (values: SwitchValues) => {
    try {
      await setUserInfo.mutateAsync({
        auto_frequency: values.auto_frequency ? 'on' : 'off',
        min: values.min,
        max: values.max,
        pool_config_status: values.pool_config_status ? 'on' : 'off',
        delay_switch_value: values.delay_switch_value,
      });
      await queryClient.invalidateQueries({ queryKey: fboxConfigKeys.overclock() });
    } catch (error) {
      showServerErrors(form, error);
    }
  };

  return (
    <Form
      form={form}
      name="switches"
      layout="vertical"
      initialValues={toValues(user)}
      onFinish={onFinish}
      disabled={readOnly}
    >
      {readOnly && (
        <Alert
          type="info"
          showIcon
          title={t('fboxConfig.switches.masterOnly')}
          style={{ marginBottom: 16 }}
        />
      )}
      <Form.Item name="auto_frequency" label={t('field.auto_frequency')} valuePropName="checked">
        <Switch checkedChildren={t('common.state.on')} unCheckedChildren={t('common.state.off')} />
      </Form.Item>
      {!readOnly && <OverclockPolicyNote />}
      <Space align="start" wrap>
        <Form.Item
          name="min"
          label={t('field.min')}
          rules={[schemaRule(frequency, { label: t('field.min') })]}
        >
          <NumberInput disabled={!autoOn} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item
          name="max"
          label={t('field.max')}
          dependencies={['min']}
          rules={[
            schemaRule(frequency, { label: t('field.max') }),
            ({ getFieldValue }) => ({
              validator: async (_rule, max: number) => {
                if (typeof max === 'number' && getFieldValue('min') > max) {
                  throw new Error(localizeRule('rule.minNotAboveMax'));
                }
              },
            }),
          ]}
        >
          <NumberInput disabled={!autoOn} style={{ width: 160 }} />
        </Form.Item>
      </Space>
      <Form.Item name="pool_config_status" label={t('field.pool_config_status')} valuePropName="checked">
        <Switch checkedChildren={t('common.state.on')} unCheckedChildren={t('common.state.off')} />
      </Form.Item>
      <Form.Item
        name="delay_switch_value"
        label={t('field.delay_switch_value')}
        extra={t('auth.account.delayHint')}
        rules={[schemaRule(delay, { label: t('field.delay_switch_value') })]}
      >
        <NumberInput suffix={t('auth.account.ms')} style={{ width: 200 }} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={setUserInfo.isPending}>
        {t('common.action.save')}
      </Button>
    </Form>
  );
};
