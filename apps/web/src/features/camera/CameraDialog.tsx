import { type Camera, CameraSaveBodySchema } from '@fbox/contracts';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../components/FormModal';
import { schemaRule } from '../../lib/form-rules';
import { showServerErrors } from '../../lib/server-errors';
import { useSaveCamera } from './api';

interface CameraValues {
  name: string;
  stream: string;
}

const shape = CameraSaveBodySchema.shape;

/** Adds a camera to an FBOX, or edits `camera`: its name and its stream on the media server. */
export const CameraDialog = ({
  fboxId,
  camera,
  onClose,
}: {
  fboxId: number;
  camera: Camera | null;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<CameraValues>();
  const save = useSaveCamera();
  const onFinish = async (values: CameraValues) => {
    try {
      await save.mutateAsync({ ...(camera && { id: camera.id }), fbox_id: fboxId, ...values });
      onClose();
    } catch (error) {
      showServerErrors(form, error);
    }
  };
  const labels = { name: t('camera.field.name'), stream: t('camera.field.stream') };
  return (
    <FormModal
      open
      title={camera ? t('camera.dialog.editTitle') : t('camera.dialog.createTitle')}
      form={form}
      saving={save.isPending}
      onClose={onClose}
    >
      <Form
        form={form}
        name="cameraForm"
        layout="vertical"
        onFinish={onFinish}
        initialValues={camera ?? {}}
        data-testid="camera-form"
      >
        <Form.Item
          name="name"
          label={labels.name}
          required
          rules={[schemaRule(shape.name, { label: labels.name })]}
        >
          <Input placeholder={t('camera.dialog.namePlaceholder')} data-testid="camera-name" />
        </Form.Item>
        <Form.Item
          name="stream"
          label={labels.stream}
          required
          rules={[schemaRule(shape.stream, { label: labels.stream })]}
          extra={t('camera.dialog.streamHint')}
        >
          <Input placeholder={t('camera.dialog.streamPlaceholder')} data-testid="camera-stream" />
        </Form.Item>
      </Form>
    </FormModal>
  );
};
