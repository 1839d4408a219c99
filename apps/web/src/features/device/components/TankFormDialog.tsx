import { TankAddBodySchema, type TankDetail } from '@fbox/contracts';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal';
import { NumberInput } from '../../../components/NumberInput';
import { schemaRule } from '../../../lib/form-rules';
import { showServerErrors } from '../../../lib/server-errors';
import { useFboxOptions } from '../api-fbox';
import { useAddTank, useEditTank } from '../api-tank';

interface TankValues {
  fbox_id: number;
  name: string;
  work_number?: string;
  no?: number;
}

const shape = TankAddBodySchema.shape;
const filled = (value: unknown) => value !== undefined && value !== null && value !== '';

/** Adds a tank to an FBOX, or edits one when `tank` is given (name required: spec §5). */
export const TankFormDialog = ({ tank, onClose }: { tank?: TankDetail; onClose: () => void }) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<TankValues>();
  const fboxes = useFboxOptions();
  const add = useAddTank();
  const edit = useEditTank();
  const onFinish = async (values: TankValues) => {
    const body = Object.fromEntries(
      Object.entries(values).filter(([, v]) => filled(v)),
    ) as unknown as TankValues;
    try {
      if (tank) {
        const { fbox_id: _f, ...changes } = body;
        await edit.mutateAsync({ id: tank.id, ...changes });
      } else await add.mutateAsync(body);
      onClose();
    } catch (error) {
      showServerErrors(form, error);
    }
  };
  return (
    <FormModal
      open
      title={tank ? t('device.tank.editTitle') : t('device.tank.createTitle')}
      form={form}
      saving={add.isPending || edit.isPending}
      onClose={onClose}
    >
      <Form
        form={form}
        name="tankForm"
        layout="vertical"
        onFinish={onFinish}
        initialValues={
          tank ? { fbox_id: tank.fbox_id, name: tank.name, work_number: tank.work_number, no: tank.no } : {}
        }
        data-testid="tank-form"
      >
        <Form.Item
          name="fbox_id"
          label={t('device.tank.fbox')}
          required
          rules={[{ required: true, message: t('common.form.choose', { field: t('device.tank.fbox') }) }]}
        >
          <Select
            disabled={tank !== undefined}
            showSearch={{ optionFilterProp: 'label' }}
            options={(fboxes.data ?? []).map((f) => ({ value: f.id, label: f.name }))}
          />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('field.name')}
          required
          rules={[schemaRule(shape.name, { label: t('field.name') })]}
        >
          <Input autoFocus />
        </Form.Item>
        <Form.Item
          name="work_number"
          label={t('device.tank.workNumber')}
          rules={[schemaRule(shape.work_number, { label: t('device.tank.workNumber'), when: filled })]}
        >
          <Input />
        </Form.Item>
        <Form.Item
          name="no"
          label={t('device.tank.no')}
          rules={[schemaRule(shape.no, { label: t('device.tank.no'), when: filled })]}
        >
          <NumberInput style={{ width: '100%' }} placeholder={t('device.tank.noHint')} />
        </Form.Item>
      </Form>
    </FormModal>
  );
};
