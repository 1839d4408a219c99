import { InboxListQuerySchema, type InboxMessage, inboxKinds, inboxText } from '@fbox/contracts';
import Badge from 'antd/es/badge';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Checkbox from 'antd/es/checkbox';
import Space from 'antd/es/space';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FilterSelects } from '../../components/FilterSelects';
import { type ServerColumn, ServerTable } from '../../components/ServerTable';
import { tableQueryProps } from '../../components/table-query';
import { formatTime } from '../../lib/time';
import { useListQuery } from '../../lib/use-list-query';
import { NO_DATA } from '../../lib/values';
import { useInboxList, useMarkAllRead, useMarkRead, useUnreadCount } from './api';

const filterKeys = ['state', 'kind'] as const;

/** Tag colours of the levels: critical, major, minor (as on the alert pages). */
const levelColors: Record<number, string> = { 1: 'red', 2: 'orange', 3: 'gold' };

/**
 * Where an alert message leads: realtime alerts while the alert is open, else history, filtered to
 * its rule's metric and its FBOX.
 */
export const alertPath = (message: InboxMessage): string | null => {
  if (message.alert_id === null) return null;
  const filters = new URLSearchParams();
  for (const name of ['metric', 'fbox_id']) {
    const value = message.params[name];
    if (value !== undefined && value !== null && value !== '') filters.set(name, String(value));
  }
  const query = filters.size > 0 ? `?${filters}` : '';
  return `${message.alert_open ? '/alarm/currentAlarm' : '/alarm/historyAlarm'}${query}`;
};

const messageColumns = (
  t: TFunction,
  onOpen: (message: InboxMessage, to?: string) => void,
): ServerColumn<InboxMessage>[] => [
  {
    key: 'level',
    title: t('inbox.column.level'),
    hideable: false,
    width: 100,
    render: (_, m) => <Tag color={levelColors[m.level]}>{t(`alertLevel.${m.level}` as 'alertLevel.1')}</Tag>,
  },
  {
    key: 'message',
    title: t('inbox.column.message'),
    hideable: false,
    render: (_, m) => {
      const unread = m.read_at === null;
      const text = inboxText(m, (key, params) => (t as (k: string, o?: object) => string)(key, params));
      return (
        <Space align="start">
          <Badge status={unread ? 'processing' : 'default'} />
          <div>
            <Typography.Link
              strong={unread}
              onClick={() => onOpen(m)}
              data-testid="inbox-title"
              data-unread={unread}
            >
              {text.title}
            </Typography.Link>
            <div>
              <Typography.Text type="secondary">{text.content}</Typography.Text>
            </div>
          </div>
        </Space>
      );
    },
  },
  {
    key: 'kind',
    title: t('inbox.filter.kind'),
    width: 140,
    render: (_, m) => t(`inbox.kind.${m.kind}`),
  },
  {
    key: 'area_name',
    title: t('inbox.column.mine'),
    width: 160,
    render: (_, m) => m.area_name ?? NO_DATA,
  },
  {
    key: 'created_at',
    title: t('inbox.column.time'),
    width: 190,
    render: (_, m) => formatTime(m.created_at),
  },
  {
    key: 'actions',
    title: t('inbox.column.actions'),
    hideable: false,
    fixed: 'right',
    width: 200,
    render: (_, m) => {
      const to = alertPath(m);
      return (
        <Space>
          {to && (
            <Button size="small" type="link" onClick={() => onOpen(m, to)} data-testid="inbox-open-alert">
              {t('inbox.action.openAlert')}
            </Button>
          )}
          {m.read_at === null && (
            <Button size="small" onClick={() => onOpen(m)} data-testid="inbox-mark-read">
              {t('inbox.action.markRead')}
            </Button>
          )}
        </Space>
      );
    },
  },
];

/**
 * Messages (catalogue screen): the user's inbox for the selected mine (and messages of no mine),
 * newest first, server-paged, filtered by unread and type and updating live. Opening a message
 * marks it read; an alert message leads to the alert.
 */
export const MessagesPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useListQuery({ filterKeys, schema: InboxListQuerySchema });
  const messages = useInboxList(list.query);
  const { data: unread = 0 } = useUnreadCount();
  const markRead = useMarkRead();
  const markAllRead = useMarkAllRead();

  const onOpen = (message: InboxMessage, to?: string) => {
    if (message.read_at === null) markRead.mutate(message.id);
    if (to) void navigate(to);
  };

  return (
    <Card title={t('inbox.route.title')}>
      <ServerTable<InboxMessage>
        tableId="inbox"
        testId="inbox-table"
        columns={messageColumns(t, onOpen)}
        list={list}
        {...tableQueryProps(messages)}
        toolbar={
          <>
            <Checkbox
              checked={list.query.filters.state === 'unread'}
              onChange={(e) => list.setFilters({ state: e.target.checked ? 'unread' : undefined })}
              data-testid="inbox-unread-only"
            >
              {t('inbox.filter.unreadOnly')}
            </Checkbox>
            <FilterSelects
              list={list}
              testIdPrefix="inbox-filter"
              filters={[
                {
                  name: 'kind',
                  label: t('inbox.filter.kind'),
                  options: inboxKinds.map((kind) => ({ value: kind, label: t(`inbox.kind.${kind}`) })),
                  width: 170,
                },
              ]}
            />
            <Button
              type="primary"
              disabled={unread === 0}
              loading={markAllRead.isPending}
              onClick={() => markAllRead.mutate()}
              data-testid="inbox-mark-all-read"
            >
              {t('inbox.action.markAllRead', { count: unread })}
            </Button>
          </>
        }
      />
    </Card>
  );
};
