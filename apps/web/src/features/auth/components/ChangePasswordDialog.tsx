import { ChangePasswordBodySchema, limits } from '@fbox/contracts';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from '../../../lib/feedback';
import { localizeRule, schemaRule } from '../../../lib/form-rules';
import { showServerErrors } from '../../../lib/server-errors';
import { clearSession } from '../../../lib/session';
import { useChangePassword } from '../api';

interface PasswordValues {
  oldpassword: string;
  password: string;
  confirm: string;
}

/** Change password (spec §5); success ends every session, so the user signs in again. */
export const ChangePasswordDialog = ({ onClose }: { onClose: () => void }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<PasswordValues>();
  const changePassword = useChangePassword();
  const shape = ChangePasswordBodySchema.shape;

  const onFinish = async ({ oldpassword, password }: PasswordValues) => {
    try {
      await changePassword.mutateAsync({ oldpassword, password });
      void toast('success', t('api.passwordChanged'), limits.toastMs / 1000, { outlivesLayout: true });
      clearSession();
      onClose();
      navigate('/login', { replace: true });
    } catch (error) {
      showServerErrors(form, error);
    }
  };

  return (
    <Modal
      open
      title={t('auth.password.title')}
      mask={{ closable: false }}
      onCancel={onClose}
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t('common.action.cancel')}
        </Button>,
        <Button
          key="ok"
          type="primary"
          loading={changePassword.isPending}
          data-testid="change-password-submit"
          onClick={() => form.submit()}
        >
          {t('common.action.ok')}
        </Button>,
      ]}
    >
      <Form form={form} name="changePassword" layout="vertical" onFinish={onFinish}>
        <Form.Item
          name="oldpassword"
          label={t('field.oldpassword')}
          required
          rules={[schemaRule(shape.oldpassword, { label: t('field.oldpassword') })]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('auth.password.new')}
          required
          rules={[schemaRule(shape.password, { label: t('auth.password.new') })]}
        >
          <Input.Password autoComplete="new-password" placeholder={t('rule.password')} />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('auth.password.confirm')}
          dependencies={['password']}
          rules={[
            { required: true, message: localizeRule('rule.required', t('auth.password.confirm')) },
            ({ getFieldValue }) => ({
              validator: async (_rule, value: string) => {
                if (value && value !== getFieldValue('password')) {
                  throw new Error(localizeRule('rule.passwordMismatch'));
                }
              },
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
};
