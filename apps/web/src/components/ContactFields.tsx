import { CountryCodeSchema, EmailSchema, PhoneNumberSchema } from '@fbox/contracts';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Space from 'antd/es/space';
import { useTranslation } from 'react-i18next';
import { schemaRule } from '../lib/form-rules';
import { CountryCodeSelect } from './CountryCodeSelect';

/** A phone as the form holds it: country code and number in two fields. */
export interface MobileValues {
  mobileCode: string;
  mobileNumber: string;
}

/** The form's two phone fields of a stored `"<code> <number>"`. */
export const splitMobile = (mobile: string): MobileValues => {
  const [mobileCode = '', mobileNumber = ''] = mobile.split(' ');
  return { mobileCode, mobileNumber };
};

/** The stored phone of the form's two fields. */
export const joinMobile = (values: MobileValues): string => `${values.mobileCode} ${values.mobileNumber}`;

/** The server reports the joined phone as `mobile`: its errors belong on the number field. */
export const phoneOnNumber = (field: string): string => (field === 'mobile' ? 'mobileNumber' : field);

/** The required phone item: a country code select and the number, with the contract's rules. */
export const MobileFormItem = ({ codeTestId }: { codeTestId?: string }) => {
  const { t } = useTranslation();
  return (
    <Form.Item label={t('field.mobile')} required>
      <Space.Compact style={{ width: '100%' }}>
        <Form.Item
          name="mobileCode"
          noStyle
          rules={[schemaRule(CountryCodeSchema, { label: t('auth.push.countryCode') })]}
        >
          <CountryCodeSelect
            style={{ width: 120 }}
            placeholder={t('auth.push.countryCode')}
            aria-label={t('auth.push.countryCode')}
            data-testid={codeTestId}
          />
        </Form.Item>
        <Form.Item
          name="mobileNumber"
          noStyle
          rules={[schemaRule(PhoneNumberSchema, { label: t('auth.push.phoneNumber') })]}
        >
          <Input
            placeholder={t('auth.push.phoneNumber')}
            aria-label={t('auth.push.phoneNumber')}
            inputMode="numeric"
          />
        </Form.Item>
      </Space.Compact>
    </Form.Item>
  );
};

/** The required email item with the contract's rule. */
export const EmailFormItem = () => {
  const { t } = useTranslation();
  return (
    <Form.Item
      name="email"
      label={t('field.email')}
      required
      rules={[schemaRule(EmailSchema, { label: t('field.email') })]}
    >
      <Input inputMode="email" autoComplete="email" />
    </Form.Item>
  );
};
