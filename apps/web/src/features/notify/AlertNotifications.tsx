import type { AlertNotification, NotificationStatus } from '@fbox/contracts';
import Alert from 'antd/es/alert';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../lib/time';
import { useAlertNotifications } from './api';

const statusColour: Record<NotificationStatus, string> = {
  pending: 'processing',
  sent: 'success',
  failed: 'error',
};

const channelLabel = {
  email: 'auth.push.channelEmail',
  sms: 'auth.push.channelSms',
  teams: 'auth.push.channelTeams',
  telegram: 'auth.push.channelTelegram',
} as const;

const statusLabel = {
  pending: 'notify.status.pending',
  sent: 'notify.status.sent',
  failed: 'notify.status.failed',
} as const;

const kindLabel = { fired: 'notify.kind.fired', recovered: 'notify.kind.recovered' } as const;

/**
 * Every notification sent (or not) for one alert: channel, recipient, outcome, tries and the last
 * error — for the alert history's detail.
 */
export const AlertNotifications = ({ areaId, alertId }: { areaId: number; alertId: number }) => {
  const { t } = useTranslation();
  const { data, isLoading, isError } = useAlertNotifications(areaId, alertId);
  if (isError) return <Alert type="error" showIcon title={t('notify.alert.loadFailed')} />;
  return (
    <Table<AlertNotification>
      size="small"
      rowKey="id"
      loading={isLoading}
      dataSource={data ?? []}
      pagination={false}
      locale={{ emptyText: t('notify.alert.empty') }}
      columns={[
        {
          title: t('notify.alert.kind'),
          dataIndex: 'kind',
          render: (k: AlertNotification['kind']) => t(kindLabel[k]),
        },
        {
          title: t('notify.alert.channel'),
          dataIndex: 'channel',
          render: (c: AlertNotification['channel']) => t(channelLabel[c]),
        },
        { title: t('notify.alert.recipient'), dataIndex: 'recipient' },
        { title: t('notify.alert.address'), dataIndex: 'address' },
        {
          title: t('notify.alert.status'),
          dataIndex: 'status',
          render: (s: NotificationStatus) => <Tag color={statusColour[s]}>{t(statusLabel[s])}</Tag>,
        },
        { title: t('notify.alert.attempts'), dataIndex: 'attempts' },
        {
          title: t('notify.alert.lastError'),
          dataIndex: 'last_error',
          render: (e: string | null) => e ?? '-',
        },
        {
          title: t('notify.alert.sentAt'),
          dataIndex: 'sent_at',
          render: (ms: number | null) => (ms === null ? '-' : formatTime(ms)),
        },
      ]}
    />
  );
};
