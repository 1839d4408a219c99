import { limits, requiredText, timeZones, type UserInfo } from '@fbox/contracts';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { avatarNumbers, avatarUrl } from '../../../components/avatars';
import {
  EmailFormItem,
  joinMobile,
  MobileFormItem,
  type MobileValues,
  phoneOnNumber,
  splitMobile,
} from '../../../components/ContactFields';
import { localizeRule, schemaRule } from '../../../lib/form-rules';
import { showServerErrors } from '../../../lib/server-errors';
import { useSetUserInfo } from '../api';

interface ProfileValues extends MobileValues {
  nickname: string;
  email: string;
  time_zone: string;
  headimg: number;
}

const toValues = (user: UserInfo): ProfileValues => {
  return {
    nickname: user.nickname,
    email: user.email,
    ...splitMobile(user.mobile),
    time_zone: user.time_zone,
    headimg: user.headimg,
  };
};

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
        mobile: joinMobile(values),
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
        <Input />
      </Form.Item>
      <EmailFormItem />
      <MobileFormItem />
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
