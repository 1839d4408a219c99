import { ObserverLinkCreateBodySchema } from '@fbox/contracts';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal';
import { schemaRule } from '../../../lib/form-rules';
import { showServerErrors } from '../../../lib/server-errors';
import { useCreateObserverLink } from '../api';

interface ObserverLinkValues {
  pool: string;
  subaccount: string;
  coin: string;
  link: string;
}

const shape = ObserverLinkCreateBodySchema.shape;

/** Adds an observer link to the selected mine: every field required, the link an http(s) address. */
export const ObserverLinkDialog = ({ onClose }: { onClose: () => void }) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<ObserverLinkValues>();
  const create = useCreateObserverLink();
  const onFinish = async (values: ObserverLinkValues) => {
    try {
      await create.mutateAsync(values);
      onClose();
    } catch (error) {
      showServerErrors(form, error);
    }
  };
  const field = (name: keyof ObserverLinkValues, label: string, placeholder?: string) => (
    <Form.Item name={name} label={label} required rules={[schemaRule(shape[name], { label })]}>
      <Input placeholder={placeholder} />
    </Form.Item>
  );
  return (
    <FormModal
      open
      title={t('pools.link.createTitle')}
      form={form}
      saving={create.isPending}
      onClose={onClose}
    >
      <Form
        form={form}
        name="observerLinkForm"
        layout="vertical"
        onFinish={onFinish}
        data-testid="observer-link-form"
      >
        {field('pool', t('field.pool'), t('pools.common.poolPlaceholder'))}
        {field('subaccount', t('field.subaccount'))}
        {field('coin', t('field.coin'), t('pools.common.coinPlaceholder'))}
        {field('link', t('field.link'), t('pools.common.urlPlaceholder'))}
      </Form>
    </FormModal>
  );
};
