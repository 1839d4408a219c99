import {
  builtinFboxConfig,
  type FboxDetail,
  FboxSettingBodySchema,
  isNoData,
  reportingIntervals,
} from '@fbox/contracts';
import Form from 'antd/es/form';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal';
import { NumberInput } from '../../../components/NumberInput';
import { schemaRule, voltageOrderRule } from '../../../lib/form-rules';
import { showServerErrors } from '../../../lib/server-errors';
import { useAreaList } from '../../mines';
import { useFboxSetting, useTransferFbox } from '../api-fbox';

interface DialogProps {
  fbox: FboxDetail;
  onClose: () => void;
}

/** Moves an FBOX (with its tanks and miners) to another mine of the account. */
export const FboxTransferDialog = ({ fbox, onClose }: DialogProps) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ to_area_id: number }>();
  const { data: areas = [] } = useAreaList();
  const transfer = useTransferFbox();
  const onFinish = async ({ to_area_id }: { to_area_id: number }) => {
    try {
      await transfer.mutateAsync({ id: fbox.id, to_area_id });
      onClose();
    } catch (error) {
      showServerErrors(form, error);
    }
  };
  return (
    <FormModal
      open
      title={t('device.box.transferTitle', { name: fbox.name })}
      okText={t('common.action.ok')}
      form={form}
      saving={transfer.isPending}
      onClose={onClose}
    >
      <Form form={form} name="fboxTransfer" layout="vertical" onFinish={onFinish}>
        <Form.Item
          name="to_area_id"
          label={t('field.to_area_id')}
          rules={[{ required: true, message: t('common.form.choose', { field: t('field.to_area_id') }) }]}
        >
          <Select
            autoFocus
            options={areas
              .filter((area) => area.id !== fbox.area_id)
              .map((area) => ({ value: area.id, label: area.area_name }))}
          />
        </Form.Item>
      </Form>
    </FormModal>
  );
};

interface SettingValues {
  voltage_min: number;
  voltage_max: number;
  temperature_max: number;
  humidity_max: number;
  reporting_interval: number;
}

const shape = FboxSettingBodySchema.shape;

/**
 * The intervals offered: the usual ones, and the box's own when the mine's configuration set another
 * (12 s), so the dialog opens with what the box does and saving it unchanged is accepted.
 */
export const intervalChoices = (current: number): number[] =>
  [...new Set<number>([...reportingIntervals, current])].sort((a, b) => a - b);

/** Voltage band, alarm thresholds and reporting interval; sent to the gateway as a command. */
export const FboxSettingDialog = ({
  fbox,
  onClose,
  onCommand,
}: DialogProps & { onCommand: (id: string, status: string) => void }) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<SettingValues>();
  const setting = useFboxSetting();
  const rule = (name: keyof SettingValues) => schemaRule(shape[name] as never, { label: t(`field.${name}`) });
  const onFinish = async (values: SettingValues) => {
    try {
      const ref = await setting.mutateAsync({ id: fbox.id, ...values });
      onCommand(ref.command_id, ref.status);
      onClose();
    } catch (error) {
      showServerErrors(form, error);
    }
  };
  const number = (unit: string) => <NumberInput suffix={unit} style={{ width: '100%' }} />;
  return (
    <FormModal
      open
      title={t('device.box.settingsTitle', { name: fbox.name })}
      form={form}
      saving={setting.isPending}
      onClose={onClose}
    >
      <Form
        form={form}
        name="fboxSetting"
        layout="vertical"
        onFinish={onFinish}
        initialValues={{
          voltage_min: fbox.voltage_min,
          voltage_max: fbox.voltage_max,
          // A threshold never set (-999) opens with the built-in default, not as a raw code, so
          // the form opens valid; the operator sees it before saving.
          temperature_max: isNoData(fbox.thresholds.temperature_max)
            ? builtinFboxConfig.temperature_max
            : fbox.thresholds.temperature_max,
          humidity_max: isNoData(fbox.thresholds.humidity_max)
            ? builtinFboxConfig.humidity_max
            : fbox.thresholds.humidity_max,
          reporting_interval: fbox.reporting_interval_s,
        }}
      >
        {(['voltage_min', 'voltage_max'] as const).map((name, i, band) => (
          <Form.Item
            key={name}
            name={name}
            label={t(`field.${name}`)}
            rules={[rule(name), voltageOrderRule]}
            dependencies={[band[1 - i]!]}
            required
          >
            {number('V')}
          </Form.Item>
        ))}
        <Form.Item
          name="temperature_max"
          label={t('field.temperature_max')}
          rules={[rule('temperature_max')]}
          required
        >
          {number('°C')}
        </Form.Item>
        <Form.Item
          name="humidity_max"
          label={t('field.humidity_max')}
          rules={[rule('humidity_max')]}
          required
        >
          {number('%')}
        </Form.Item>
        <Form.Item
          name="reporting_interval"
          label={t('field.reporting_interval')}
          rules={[rule('reporting_interval')]}
          required
        >
          <Select
            options={intervalChoices(fbox.reporting_interval_s).map((seconds) => ({
              value: seconds,
              label: t('device.history.seconds', { count: seconds }),
            }))}
          />
        </Form.Item>
      </Form>
    </FormModal>
  );
};
