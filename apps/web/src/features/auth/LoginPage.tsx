import { type FieldError, LoginBodySchema } from '@fbox/contracts';
import {
  type CSSProperties,
  type FormEvent,
  type InputHTMLAttributes,
  type ReactNode,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { LangSwitch } from '../../components/LangSwitch';
import { Logo } from '../../components/Logo';
import { ApiError } from '../../lib/api';
import { clearToasts } from '../../lib/feedback';
import { fieldErrorText, localizeRule } from '../../lib/form-rules';
import { safeRedirect } from '../../lib/navigation';
import { startSession } from '../../lib/session';
import { useSettings } from '../../lib/ui-store';
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

/** 16 px line icons for the fields (drawn inline: no icon font, no request). */
const icons = {
  username: <path d="M8 8a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm-5.5 6.5c.4-2.6 2.7-4.5 5.5-4.5s5.1 1.9 5.5 4.5" />,
  password: (
    <>
      <rect x="3" y="7" width="10" height="7.5" rx="1.5" />
      <path d="M5.5 7V5a2.5 2.5 0 0 1 5 0v2M8 10v2" />
    </>
  ),
  googleCode: (
    <path d="M8 1.5 2.5 3.5v4c0 3.3 2.3 5.9 5.5 7 3.2-1.1 5.5-3.7 5.5-7v-4L8 1.5Zm-2.5 7 2 2 3.5-4" />
  ),
  show: (
    <>
      <path d="M1 8s2.5-5 7-5 7 5 7 5-2.5 5-7 5-7-5-7-5Z" />
      <circle cx="8" cy="8" r="2.2" />
    </>
  ),
  hide: <path d="M1 8s2.5-5 7-5 7 5 7 5-2.5 5-7 5-7-5-7-5Zm1.5-6.5 11 13M6.4 6.5a2.2 2.2 0 0 0 3.1 3.1" />,
};
const Icon = ({ name }: { name: keyof typeof icons }) => (
  <svg
    viewBox="0 0 16 16"
    width="16"
    height="16"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.3"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
  >
    {icons[name]}
  </svg>
);

/** A text field with its icon in front, and an optional button at its end. */
const Field = ({
  icon,
  invalid,
  suffix,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & {
  icon: keyof typeof icons;
  invalid: boolean;
  suffix?: ReactNode;
}) => (
  <span className={invalid ? `${styles.field} ${styles.fieldInvalid}` : styles.field}>
    <span className={styles.fieldIcon}>
      <Icon name={icon} />
    </span>
    <input className={styles.input} {...input} />
    {suffix}
  </span>
);

/**
 * Sign-in (spec §2–§3). Plain HTML and CSS, no antd: /login is the first page most people load,
 * and without antd it downloads about half the bytes and runs far less script before it shows.
 * Ids follow antd's `<form name>_<field>` scheme, as the other forms' do.
 */
export const LoginPage = () => {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [values, setValues] = useState<Values>({ username: '', password: '', googleCode: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [passwordShown, setPasswordShown] = useState(false);
  const { themeColor } = useSettings();
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
    invalid: Boolean(errors[field]),
    value: values[field],
    onChange: onChange(field),
  });

  return (
    // The chosen theme colour, as the console's pages have it (antd sets the same variable there).
    <div className={styles.page} style={{ '--ant-color-primary': themeColor } as CSSProperties}>
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
            <Field
              icon="username"
              type="text"
              placeholder={t('field.username')}
              aria-label={t('field.username')}
              autoComplete="username"
              {...a11y('username')}
            />,
          )}
          {item(
            'password',
            <Field
              icon="password"
              type={passwordShown ? 'text' : 'password'}
              placeholder={t('field.password')}
              aria-label={t('field.password')}
              autoComplete="current-password"
              {...a11y('password')}
              suffix={
                <button
                  type="button"
                  className={styles.reveal}
                  onClick={() => setPasswordShown((shown) => !shown)}
                  aria-label={passwordShown ? t('auth.login.hidePassword') : t('auth.login.showPassword')}
                  aria-pressed={passwordShown}
                  data-testid="login-password-reveal"
                >
                  <Icon name={passwordShown ? 'hide' : 'show'} />
                </button>
              }
            />,
          )}
          {item(
            'googleCode',
            <Field
              icon="googleCode"
              type="text"
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
