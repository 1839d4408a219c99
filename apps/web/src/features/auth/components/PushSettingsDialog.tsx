import { alertLevels, limits, type PushChannel, pushChannels, pushRowSchemas } from '@fbox/contracts';
import Checkbox from 'antd/es/checkbox';
import Form from 'antd/es/form';
import Spin from 'antd/es/spin';
import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal';
import { showServerErrors } from '../../../lib/server-errors';
import { ChannelTest, recordNotifyLanguage, useNotifyChannels } from '../../notify';
import { useSetUserInfo, useUserInfo } from '../api';
import { PushPhoneList } from './PushPhoneList';
import { PushRowList } from './PushRowList';
import { type PushValues, toPushContent, toPushValues } from './push-form';

const channelLabel = {
  email: 'auth.push.channelEmail',
  sms: 'auth.push.channelSms',
  teams: 'auth.push.channelTeams',
  telegram: 'auth.push.channelTelegram',
} as const satisfies Record<PushChannel, string>;

/** Push settings (spec §3, §5): alert levels, channels and their addresses. */
export const PushSettingsDialog = ({ onClose }: { onClose: () => void }) => {
  const { t } = useTranslation();
  const { data: user } = useUserInfo();
  const [form] = Form.useForm<PushValues>();
  const setUserInfo = useSetUserInfo();
  const { data: configured } = useNotifyChannels();
  /** A channel the server has no settings for (unknown while loading: shown as configured). */
  const notConfigured = (channel: PushChannel) => configured?.[channel] === false;
  const checked = Form.useWatch('checkList', form) ?? [];
  const isOn = (channel: PushChannel) => () =>
    ((form.getFieldValue('checkList') as PushChannel[] | undefined) ?? []).includes(channel);

  const onFinish = async (values: PushValues) => {
    try {
      await setUserInfo.mutateAsync({ pushContent: toPushContent(values) });
      // Notifications are written in the language the console is used in; a failure here keeps the old one.
      await recordNotifyLanguage().catch(() => undefined);
      onClose();
    } catch (error) {
      showServerErrors(form, error, { prefix: 'pushContent' });
    }
  };

  const levelOptions = alertLevels.map((level) => ({
    value: level,
    label: user?.alert_send_level_lable[String(level)] || t(`alertLevel.${level}`),
  }));
  const channelOptions = pushChannels.map((channel) => ({
    value: channel,
    label: notConfigured(channel) ? (
      <span>
        {t(channelLabel[channel])}{' '}
        <Tag color="warning" data-testid={`not-configured-${channel}`}>
          {t('notify.push.notConfigured')}
        </Tag>
      </span>
    ) : (
      t(channelLabel[channel])
    ),
  }));
  const test = (channel: PushChannel) => <ChannelTest channel={channel} disabled={notConfigured(channel)} />;

  return (
    <FormModal
      open
      form={form}
      saving={setUserInfo.isPending}
      onClose={onClose}
      title={t('auth.push.title')}
      width={640}
      okButtonProps={{ disabled: !user }}
    >
      {!user ? (
        <Spin />
      ) : (
        <Form
          form={form}
          name="push"
          layout="vertical"
          initialValues={toPushValues(user)}
          onFinish={onFinish}
        >
          <Form.Item name="alertLevel" label={t('field.alertLevel')}>
            <Checkbox.Group options={levelOptions} />
          </Form.Item>
          <Form.Item name="checkList" label={t('field.checkList')}>
            <Checkbox.Group options={channelOptions} />
          </Form.Item>
          <PushRowList
            name="emailList"
            label={t('field.emailList')}
            max={limits.maxPushEmails}
            channelOn={isOn('email')}
            schema={pushRowSchemas.email}
            placeholder={t('auth.push.emailPlaceholder')}
          />
          {test('email')}
          <PushPhoneList
            channelOn={isOn('sms')}
            extra={checked.includes('sms') ? t('auth.push.smsLeft', { count: user.sms_times }) : undefined}
          />
          {test('sms')}
          <PushRowList
            name="teamsUrlList"
            label={t('field.teamsUrlList')}
            max={limits.maxPushTeams}
            channelOn={isOn('teams')}
            schema={pushRowSchemas.teamsUrl}
            placeholder={t('auth.push.teamsPlaceholder')}
          />
          {test('teams')}
          <PushRowList
            name="telegramList"
            label={t('field.telegramList')}
            max={limits.maxPushTelegram}
            channelOn={isOn('telegram')}
            schema={pushRowSchemas.telegramChatId}
            placeholder={t('auth.push.telegramPlaceholder')}
          />
          {test('telegram')}
        </Form>
      )}
    </FormModal>
  );
};
