import { AreaCreateBodySchema, type Mine } from '@fbox/contracts';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal';
import { schemaRule } from '../../../lib/form-rules';
import { showServerErrors } from '../../../lib/server-errors';
import { useCreateArea, useEditMine } from '../api';

const shape = AreaCreateBodySchema.shape;

export interface MineValues {
  area_name: string;
  electricity_hz: 50 | 60;
  /** Typed text: the contract says whether it is a valid number greater than 0. */
  electricity_price: string;
  contact: string;
  comment: string;
}

const initialOf = (mine?: Mine): MineValues => ({
  area_name: mine?.area_name ?? '',
  electricity_hz: mine?.electricity_hz === 60 ? 60 : 50,
  electricity_price: mine ? String(mine.electricity_price) : '',
  contact: mine?.contact ?? '',
  comment: mine?.comment ?? '',
});

/**
 * Creates a mine, or edits `mine`. Field rules are the contract's (a price must be a valid number
 * greater than 0); server field errors land on the fields. Enter in a one-line field submits.
 */
export const MineFormDialog = ({
  open,
  mine,
  onClose,
}: {
  open: boolean;
  mine?: Mine;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<MineValues>();
  const create = useCreateArea({ select: false });
  const edit = useEditMine();

  const onFinish = async (values: MineValues) => {
    try {
      if (mine) await edit.mutateAsync({ id: mine.id, ...values });
      else await create.mutateAsync(values);
      onClose();
    } catch (error) {
      showServerErrors(form, error);
    }
  };

  const label = (name: keyof MineValues) => t(`field.${name}`);

  return (
    <FormModal
      open={open}
      title={mine ? t('mines.editTitle') : t('mines.createTitle')}
      form={form}
      saving={create.isPending || edit.isPending}
      onClose={onClose}
    >
      <Form
        form={form}
        name="mineForm"
        layout="vertical"
        initialValues={initialOf(mine)}
        onFinish={onFinish}
        data-testid="mine-form"
      >
        <Form.Item
          name="area_name"
          label={label('area_name')}
          required
          rules={[schemaRule(shape.area_name, { label: label('area_name') })]}
        >
          <Input autoFocus />
        </Form.Item>
        <Form.Item
          name="electricity_price"
          label={label('electricity_price')}
          required
          extra={t('mines.priceHint')}
          rules={[schemaRule(shape.electricity_price, { label: label('electricity_price') })]}
        >
          <Input inputMode="decimal" />
        </Form.Item>
        <Form.Item name="electricity_hz" label={label('electricity_hz')}>
          <Radio.Group options={[50, 60].map((hz) => ({ value: hz, label: t('mines.hz', { hz }) }))} />
        </Form.Item>
        <Form.Item
          name="contact"
          label={label('contact')}
          rules={[schemaRule(shape.contact, { label: label('contact') })]}
        >
          <Input />
        </Form.Item>
        <Form.Item
          name="comment"
          label={label('comment')}
          rules={[schemaRule(shape.comment, { label: label('comment') })]}
        >
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} />
        </Form.Item>
        {/* Enter in a field submits like the OK button. */}
        <button type="submit" hidden aria-hidden />
      </Form>
    </FormModal>
  );
};
