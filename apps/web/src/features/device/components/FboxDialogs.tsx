import { type FboxDetail, FboxSettingBodySchema, limits, reportingIntervals } from '@fbox/contracts';
import Form from 'antd/es/form';
import InputNumber from 'antd/es/input-number';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal';
import { schemaRule } from '../../../lib/form-rules';
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
  const number = (min: number, max: number, unit: string) => (
    <InputNumber min={min} max={max} suffix={unit} style={{ width: '100%' }} />
  );
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
          temperature_max: fbox.thresholds.temperature_max,
          humidity_max: fbox.thresholds.humidity_max,
          reporting_interval: fbox.reporting_interval_s,
        }}
      >
        <Form.Item name="voltage_min" label={t('field.voltage_min')} rules={[rule('voltage_min')]} required>
          {number(limits.voltageReferenceMin, limits.voltageReferenceMax, 'V')}
        </Form.Item>
        <Form.Item name="voltage_max" label={t('field.voltage_max')} rules={[rule('voltage_max')]} required>
          {number(limits.voltageReferenceMin, limits.voltageReferenceMax, 'V')}
        </Form.Item>
        <Form.Item
          name="temperature_max"
          label={t('field.temperature_max')}
          rules={[rule('temperature_max')]}
          required
        >
          {number(0, 100, '°C')}
        </Form.Item>
        <Form.Item
          name="humidity_max"
          label={t('field.humidity_max')}
          rules={[rule('humidity_max')]}
          required
        >
          {number(0, 100, '%')}
        </Form.Item>
        <Form.Item
          name="reporting_interval"
          label={t('field.reporting_interval')}
          rules={[rule('reporting_interval')]}
          required
        >
          <Select
            options={reportingIntervals.map((seconds) => ({
              value: seconds,
              label: t('device.history.seconds', { count: seconds }),
            }))}
          />
        </Form.Item>
      </Form>
    </FormModal>
  );
};
