import { TotpCodeSchema, type TotpSetupData, type UserInfo } from '@fbox/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import QRCode from 'antd/es/qr-code';
import Typography from 'antd/es/typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { schemaRule } from '../../../lib/form-rules';
import { showServerErrors } from '../../../lib/server-errors';
import { useTotpDisable, useTotpEnable, useTotpSetup } from '../api';
import styles from './dialogs.module.css';

/** Google Authenticator: enrol with a QR code and a first code, or turn off with a current code. */
export const TotpPanel = ({ user }: { user: UserInfo }) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ code: string }>();
  const [setup, setSetup] = useState<TotpSetupData | null>(null);
  const totpSetup = useTotpSetup();
  const totpEnable = useTotpEnable();
  const totpDisable = useTotpDisable();
  const enabled = user.google_auth === 1;
  const confirm = enabled ? totpDisable : totpEnable;

  const onFinish = async ({ code }: { code: string }) => {
    try {
      await confirm.mutateAsync({ code: code.trim() });
      setSetup(null);
      form.resetFields();
    } catch (error) {
      showServerErrors(form, error);
    }
  };

  const codeForm = (submitKey: 'auth.totp.enable' | 'auth.totp.disable') => (
    <Form form={form} name="totp" layout="inline" onFinish={onFinish}>
      <Form.Item name="code" rules={[schemaRule(TotpCodeSchema, { label: t('field.code') })]}>
        <Input
          placeholder={t('auth.totp.codePlaceholder')}
          inputMode="numeric"
          autoComplete="one-time-code"
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" danger={enabled} loading={confirm.isPending}>
        {t(submitKey)}
      </Button>
    </Form>
  );

  if (enabled) {
    return (
      <>
        <Alert
          type="success"
          showIcon
          title={t('auth.totp.enabled')}
          description={t('auth.totp.disableHint')}
        />
        <div style={{ marginTop: 16 }}>{codeForm('auth.totp.disable')}</div>
      </>
    );
  }

  if (!setup) {
    return (
      <>
        <Alert type="info" showIcon title={t('auth.totp.disabled')} description={t('auth.totp.intro')} />
        <Button
          type="primary"
          style={{ marginTop: 16 }}
          loading={totpSetup.isPending}
          onClick={() => totpSetup.mutate(undefined, { onSuccess: setSetup })}
        >
          {t('auth.totp.start')}
        </Button>
      </>
    );
  }

  return (
    <>
      <Typography.Paragraph>{t('auth.totp.scan')}</Typography.Paragraph>
      <div className={styles.qr}>
        <QRCode value={setup.otpauth_url} size={160} />
        <div>
          <Typography.Text type="secondary">{t('auth.totp.secret')}</Typography.Text>
          <Typography.Paragraph copyable className={styles.secret}>
            <code>{setup.secret}</code>
          </Typography.Paragraph>
        </div>
      </div>
      {codeForm('auth.totp.enable')}
    </>
  );
};
