import { type CameraSettings, CameraSettingsBodySchema } from '@fbox/contracts';
import Form from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../components/FormModal';
import { NumberInput } from '../../components/NumberInput';
import { schemaRule } from '../../lib/form-rules';
import { showServerErrors } from '../../lib/server-errors';
import { useSaveCameraSettings } from './api';

interface SettingsValues {
  interval_minutes: number | null;
  retention_days: number | null;
}

const shape = CameraSettingsBodySchema.shape;

/** The mine's snapshot interval and how long snapshots are kept. */
export const CameraSettingsDialog = ({
  settings,
  onClose,
}: {
  settings: Pick<CameraSettings, 'interval_minutes' | 'retention_days'>;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<SettingsValues>();
  const save = useSaveCameraSettings();
  const onFinish = async (values: SettingsValues) => {
    try {
      await save.mutateAsync({
        interval_minutes: values.interval_minutes ?? '',
        retention_days: values.retention_days ?? '',
      });
      onClose();
    } catch (error) {
      showServerErrors(form, error);
    }
  };
  const labels = { interval: t('camera.field.interval'), retention: t('camera.field.retention') };
  return (
    <FormModal open title={t('camera.settings.title')} form={form} saving={save.isPending} onClose={onClose}>
      <Form
        form={form}
        name="cameraSettingsForm"
        layout="vertical"
        onFinish={onFinish}
        initialValues={settings}
        data-testid="camera-settings-form"
      >
        <Form.Item
          name="interval_minutes"
          label={labels.interval}
          required
          rules={[schemaRule(shape.interval_minutes, { label: labels.interval })]}
          extra={t('camera.settings.intervalHint')}
        >
          <NumberInput
            suffix={t('camera.settings.minutes')}
            style={{ width: 180 }}
            data-testid="camera-interval"
          />
        </Form.Item>
        <Form.Item
          name="retention_days"
          label={labels.retention}
          required
          rules={[schemaRule(shape.retention_days, { label: labels.retention })]}
          extra={t('camera.settings.retentionHint')}
        >
          <NumberInput
            suffix={t('camera.settings.days')}
            style={{ width: 180 }}
            data-testid="camera-retention"
          />
        </Form.Item>
      </Form>
    </FormModal>
  );
};
