import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { type FieldError, LoginBodySchema } from '@fbox/contracts';
// Input and Password by file: the antd/es/input index also pulls Search, and with it Button.
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { LangSwitch } from '../../components/LangSwitch';
import { Logo } from '../../components/Logo';
import { ApiError } from '../../lib/api';
import { clearToasts } from '../../lib/feedback';
import { fieldErrorText, localizeRule } from '../../lib/form-rules';
import { safeRedirect } from '../../lib/navigation';
import { startSession } from '../../lib/session';
import { login } from './calls';
import styles from './LoginPage.module.css';

type Field = 'username' | 'password' | 'googleCode';
type Values = Record<Field, string>;
type Errors = Partial<Record<Field, string>>;

/** Checks the values with the contract's login schema; messages in the user's language. */
const validate = (values: Values, labels: Record<Field, string>): Errors => {
  const result = LoginBodySchema.safeParse(values);
  if (result.success) return {};
  const errors: Errors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as Field;
    errors[field] ??= localizeRule(issue.message, labels[field]);
  }
  return errors;
};

const fromServer = (fieldErrors: FieldError[]): Errors =>
  Object.fromEntries(fieldErrors.map((error) => [error.field, fieldErrorText(error)]));

/**
 * Sign-in (spec §2–§3). A plain form rather than antd Form: /login is the first page most people
 * load, and antd Form and Button would add ~30 KB gzip to it. Ids follow antd's `<form name>_<field>` scheme.
 */
export const LoginPage = () => {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [values, setValues] = useState<Values>({ username: '', password: '', googleCode: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const labels = {
    username: t('field.username'),
    password: t('field.password'),
    googleCode: t('field.googleCode'),
  };

  const onChange = (field: Field) => (event: { target: { value: string } }) => {
    const next = { ...values, [field]: event.target.value };
    setValues(next);
    if (submitted) setErrors(validate(next, labels));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const found = validate(values, labels);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSubmitting(true);
    try {
      const { logintoken } = await login({
        username: values.username.trim(),
        password: values.password,
        googleCode: values.googleCode.trim(),
      });
      startSession(logintoken);
      clearToasts();
      navigate(safeRedirect(params.get('redirect')) ?? '/index', { replace: true, flushSync: true });
    } catch (error) {
      if (error instanceof ApiError) setErrors(fromServer(error.fieldErrors));
    } finally {
      setSubmitting(false);
    }
  };

  const item = (field: Field, control: ReactNode, hint?: string) => (
    <div className={styles.item}>
      {control}
      {errors[field] ? (
        <div id={`login_${field}_help`} role="alert" className={styles.error}>
          {errors[field]}
        </div>
      ) : (
        hint && <div className={styles.hint}>{hint}</div>
      )}
    </div>
  );
  const a11y = (field: Field) => ({
    id: `login_${field}`,
    name: field,
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `login_${field}_help` : undefined,
    status: errors[field] ? ('error' as const) : undefined,
    value: values[field],
    onChange: onChange(field),
  });

  return (
    <div className={styles.page}>
      <div className={styles.lang}>
        <LangSwitch inverted />
      </div>
      <main className={styles.card}>
        <div className={styles.brand}>
          <Logo size={40} />
          <h1 className={styles.title}>{t('app.brand.title')}</h1>
        </div>
        <p className={styles.subtitle}>{t('auth.login.subtitle')}</p>
        <form name="login" id="login" noValidate onSubmit={onSubmit}>
          {item(
            'username',
            <Input
              size="large"
              prefix={<UserOutlined />}
              placeholder={t('field.username')}
              aria-label={t('field.username')}
              autoComplete="username"
              {...a11y('username')}
            />,
          )}
          {item(
            'password',
            <Password
              size="large"
              prefix={<LockOutlined />}
              placeholder={t('field.password')}
              aria-label={t('field.password')}
              autoComplete="current-password"
              {...a11y('password')}
            />,
          )}
          {item(
            'googleCode',
            <Input
              size="large"
              prefix={<SafetyOutlined />}
              placeholder={t('auth.login.googleCode')}
              aria-label={t('auth.login.googleCode')}
              inputMode="numeric"
              autoComplete="one-time-code"
              {...a11y('googleCode')}
            />,
            t('auth.login.googleHint'),
          )}
          <button type="submit" className={styles.submit} disabled={submitting} data-testid="login-submit">
            {submitting && <span className={styles.spinner} aria-hidden="true" />}
            {t('auth.login.submit')}
          </button>
        </form>
      </main>
    </div>
  );
};
