import { AreaCreateBodySchema, limits } from '@fbox/contracts';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import { useTranslation } from 'react-i18next';
import { schemaRule } from '../../lib/form-rules';
import { showServerErrors } from '../../lib/server-errors';
import { useCreateArea } from '../mines';
import styles from './HomePage.module.css';

interface MineValues {
  area_name: string;
  electricity_hz: 50 | 60;
  /** Typed text: the contract says whether it is a valid number greater than 0 (spec §5). */
  electricity_price: string;
}

/** A master account without mines creates its first one here; it becomes the selected mine. */
export const CreateFirstMine = () => {
  const { t } = useTranslation();
  const [form] = Form.useForm<MineValues>();
  const createArea = useCreateArea();

  const onFinish = (values: MineValues) =>
    createArea.mutateAsync(values).catch((error: unknown) => {
      showServerErrors(form, error);
    });

  return (
    <Form
      form={form}
      name="createMine"
      layout="vertical"
      className={styles.createForm}
      initialValues={{ electricity_hz: limits.defaultElectricityHz }}
      onFinish={onFinish}
    >
      <Form.Item
        name="area_name"
        label={t('field.area_name')}
        required
        rules={[schemaRule(AreaCreateBodySchema.shape.area_name, { label: t('field.area_name') })]}
      >
        <Input />
      </Form.Item>
      <Form.Item
        name="electricity_price"
        label={t('field.electricity_price')}
        required
        rules={[
          schemaRule(AreaCreateBodySchema.shape.electricity_price, { label: t('field.electricity_price') }),
        ]}
      >
        <Input inputMode="decimal" data-testid="create-mine-price" />
      </Form.Item>
      <Form.Item name="electricity_hz" label={t('field.electricity_hz')}>
        <Radio.Group
          options={[
            { value: 50, label: t('home.noMine.hz50') },
            { value: 60, label: t('home.noMine.hz60') },
          ]}
        />
      </Form.Item>
      <Button
        type="primary"
        htmlType="submit"
        loading={createArea.isPending}
        data-testid="create-mine-submit"
      >
        {t('home.noMine.create')}
      </Button>
    </Form>
  );
};
