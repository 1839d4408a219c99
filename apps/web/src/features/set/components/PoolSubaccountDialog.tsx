import { type PoolSubaccount, PoolSubaccountSaveBodySchema } from '@fbox/contracts';
import Checkbox from 'antd/es/checkbox';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal';
import { schemaRule } from '../../../lib/form-rules';
import { showServerErrors } from '../../../lib/server-errors';
import { useSavePoolSubaccount } from '../api';
import styles from '../set.module.css';

export interface PoolSubaccountValues {
  pool: string;
  subaccount: string;
  coin: string;
  observer_url?: string;
  api_key?: string;
  api_secret?: string;
  clear_api_key?: boolean;
  clear_api_secret?: boolean;
}

const shape = PoolSubaccountSaveBodySchema.shape;
const secrets = ['api_key', 'api_secret'] as const;

/** What the save sends about the secrets: "remove" when ticked, a typed value, else nothing (keep). */
export const secretChanges = (values: PoolSubaccountValues): Record<string, string | boolean> => {
  const changes: Record<string, string | boolean> = {};
  for (const name of secrets) {
    const value = values[name]?.trim();
    if (values[`clear_${name}`]) changes[`clear_${name}`] = true;
    else if (value) changes[name] = value;
  }
  return changes;
};

/**
 * Adds a pool subaccount to the selected mine, or edits `subaccount`. Secrets are write-only: the
 * inputs start empty, an empty one keeps what is stored, and "remove" deletes it.
 */
export const PoolSubaccountDialog = ({
  subaccount,
  onClose,
}: {
  subaccount?: PoolSubaccount;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<PoolSubaccountValues>();
  const save = useSavePoolSubaccount();
  const clearing = {
    api_key: Form.useWatch('clear_api_key', form) === true,
    api_secret: Form.useWatch('clear_api_secret', form) === true,
  };
  const onFinish = async (values: PoolSubaccountValues) => {
    try {
      await save.mutateAsync({
        ...(subaccount && { id: subaccount.id }),
        pool: values.pool,
        subaccount: values.subaccount,
        coin: values.coin,
        observer_url: values.observer_url ?? '',
        ...secretChanges(values),
      });
      onClose();
    } catch (error) {
      showServerErrors(form, error);
    }
  };
  const text = (name: 'pool' | 'subaccount' | 'coin', label: string, placeholder?: string) => (
    <Form.Item name={name} label={label} required rules={[schemaRule(shape[name], { label })]}>
      <Input placeholder={placeholder} />
    </Form.Item>
  );
  const secret = (name: (typeof secrets)[number], label: string) => {
    const stored = subaccount?.[`has_${name}`] === true;
    return (
      <Form.Item label={label} required={false}>
        <Form.Item
          noStyle
          name={name}
          dependencies={[`clear_${name}`]}
          rules={[schemaRule(shape[name], { label })]}
        >
          <Input.Password
            autoComplete="new-password"
            disabled={clearing[name]}
            aria-label={label}
            data-testid={`pool-subaccount-${name}`}
            placeholder={stored ? t('pools.secret.storedKeep') : t('pools.secret.notStored')}
          />
        </Form.Item>
        {stored && (
          <div className={styles.secretState}>
            <Form.Item noStyle name={`clear_${name}`} valuePropName="checked">
              <Checkbox
                data-testid={`pool-subaccount-clear_${name}`}
                onChange={(e) => {
                  if (e.target.checked) form.setFieldValue(name, '');
                }}
              >
                {t('pools.secret.remove')}
              </Checkbox>
            </Form.Item>
          </div>
        )}
        {!stored && (
          <div className={styles.secretState}>
            <Typography.Text type="secondary">{t('pools.secret.writeOnly')}</Typography.Text>
          </div>
        )}
      </Form.Item>
    );
  };
  return (
    <FormModal
      open
      title={subaccount ? t('pools.subaccount.editTitle') : t('pools.subaccount.createTitle')}
      form={form}
      saving={save.isPending}
      onClose={onClose}
    >
      <Form
        form={form}
        name="poolSubaccountForm"
        layout="vertical"
        onFinish={onFinish}
        initialValues={
          subaccount
            ? {
                pool: subaccount.pool,
                subaccount: subaccount.subaccount,
                coin: subaccount.coin,
                observer_url: subaccount.observer_url,
              }
            : {}
        }
        data-testid="pool-subaccount-form"
      >
        {text('pool', t('field.pool'), t('pools.common.poolPlaceholder'))}
        {text('subaccount', t('field.subaccount'))}
        {text('coin', t('field.coin'), t('pools.common.coinPlaceholder'))}
        <Form.Item
          name="observer_url"
          label={t('field.observer_url')}
          rules={[schemaRule(shape.observer_url, { label: t('field.observer_url') })]}
        >
          <Input placeholder={t('pools.common.urlPlaceholder')} />
        </Form.Item>
        {secret('api_key', t('field.api_key'))}
        {secret('api_secret', t('field.api_secret'))}
      </Form>
    </FormModal>
  );
};
