import Form, { type FormInstance } from 'antd/es/form';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal';
import { showServerErrors } from '../../../lib/server-errors';

interface Props<V> {
  open: boolean;
  title: string;
  /** Kept by the caller, so a reopened dialog shows what was typed last. */
  form: FormInstance<V>;
  /** The antd form name: it prefixes the inputs' ids. */
  name: string;
  /** Which miners the action touches, said above the form ("This applies to 3 selected miners."). */
  scope: string;
  saving: boolean;
  initialValues?: Partial<V>;
  /** Starts the action; a refusal's field errors show on the fields and keep the dialog open. */
  onSubmit: (values: V) => Promise<unknown>;
  onClose: () => void;
  children: ReactNode;
}

/** A bulk miner action that needs a few values first (pool change, auto overclock). */
export const BulkFormDialog = <V,>({
  open,
  title,
  form,
  name,
  scope,
  saving,
  initialValues,
  onSubmit,
  onClose,
  children,
}: Props<V>) => {
  const { t } = useTranslation();
  const onFinish = async (values: V) => {
    try {
      await onSubmit(values);
      onClose();
    } catch (error) {
      showServerErrors(form, error);
    }
  };
  return (
    <FormModal
      open={open}
      title={title}
      okText={t('common.action.ok')}
      form={form}
      saving={saving}
      onClose={onClose}
    >
      <p>{scope}</p>
      <Form<V> form={form} name={name} layout="vertical" initialValues={initialValues} onFinish={onFinish}>
        {children}
      </Form>
    </FormModal>
  );
};
