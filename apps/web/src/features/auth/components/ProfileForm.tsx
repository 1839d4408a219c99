import {
  CountryCodeSchema,
  EmailSchema,
  limits,
  PhoneNumberSchema,
  requiredText,
  timeZones,
  type UserInfo,
} from '@fbox/contracts';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import { useTranslation } from 'react-i18next';
import { avatarNumbers, avatarUrl } from '../../../components/avatars';
import { CountryCodeSelect } from '../../../components/CountryCodeSelect';
import { localizeRule, schemaRule } from '../../../lib/form-rules';
import { showServerErrors } from '../../../lib/server-errors';
import { useSetUserInfo } from '../api';

interface ProfileValues {
  nickname: string;
  email: string;
  mobileCode: string;
  mobileNumber: string;
  time_zone: string;
  headimg: number;
}

const toValues = (user: UserInfo): ProfileValues => {
  const [mobileCode = '', mobileNumber = ''] = user.mobile.split(' ');
  return {
    nickname: user.nickname,
    email: user.email,
    mobileCode,
    mobileNumber,
    time_zone: user.time_zone,
    headimg: user.headimg,
  };
};

/** The server reports the joined phone as `mobile`; it belongs to the number field here. */
const phoneOnNumber = (field: string) => (field === 'mobile' ? 'mobileNumber' : field);

/** Nickname, email, phone, time zone and avatar (spec §5 profile rules). */
export const ProfileForm = ({ user }: { user: UserInfo }) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<ProfileValues>();
  const setUserInfo = useSetUserInfo();

  const onFinish = async (values: ProfileValues) => {
    try {
      await setUserInfo.mutateAsync({
        nickname: values.nickname.trim(),
        email: values.email.trim(),
        mobile: `${values.mobileCode} ${values.mobileNumber}`,
        time_zone: values.time_zone,
        headimg: values.headimg,
      });
    } catch (error) {
      showServerErrors(form, error, { field: phoneOnNumber });
    }
  };

  return (
    <Form form={form} name="profile" layout="vertical" initialValues={toValues(user)} onFinish={onFinish}>
      <Form.Item
        name="nickname"
        label={t('field.nickname')}
        required
        rules={[schemaRule(requiredText(limits.nicknameMax), { label: t('field.nickname') })]}
      >
        <Input maxLength={limits.nicknameMax} />
      </Form.Item>
      <Form.Item
        name="email"
        label={t('field.email')}
        required
        rules={[schemaRule(EmailSchema, { label: t('field.email') })]}
      >
        <Input type="email" maxLength={limits.emailMax} />
      </Form.Item>
      <Form.Item label={t('field.mobile')} required>
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item
            name="mobileCode"
            noStyle
            rules={[schemaRule(CountryCodeSchema, { label: t('auth.push.countryCode') })]}
          >
            <CountryCodeSelect style={{ width: 120 }} placeholder={t('auth.push.countryCode')} />
          </Form.Item>
          <Form.Item
            name="mobileNumber"
            noStyle
            rules={[schemaRule(PhoneNumberSchema, { label: t('auth.push.phoneNumber') })]}
          >
            <Input placeholder={t('auth.push.phoneNumber')} inputMode="numeric" />
          </Form.Item>
        </Space.Compact>
      </Form.Item>
      <Form.Item
        name="time_zone"
        label={t('field.time_zone')}
        rules={[{ required: true, message: localizeRule('rule.required', t('field.time_zone')) }]}
      >
        <Select options={timeZones.map((zone) => ({ value: zone, label: zone }))} />
      </Form.Item>
      <Form.Item name="headimg" label={t('field.headimg')}>
        <Radio.Group style={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
          {avatarNumbers.map((n) => (
            <Radio key={n} value={n} style={{ margin: 0, alignItems: 'center' }}>
              <img src={avatarUrl(n)} alt={t('auth.account.avatarAlt', { n })} width={36} height={36} />
            </Radio>
          ))}
        </Radio.Group>
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={setUserInfo.isPending}>
        {t('common.action.save')}
      </Button>
    </Form>
  );
};
