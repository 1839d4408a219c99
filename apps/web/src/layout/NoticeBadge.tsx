import { BellOutlined } from '@ant-design/icons';
import Badge from 'antd/es/badge';
import Button from 'antd/es/button';
import Tooltip from 'antd/es/tooltip';
import { useTranslation } from 'react-i18next';
import { useUnreadCount } from '../features/messages';

/** Unread alerts; refreshed every 60 s. */
export const NoticeBadge = () => {
  const { t } = useTranslation();
  const { data: count = 0 } = useUnreadCount();
  return (
    <Tooltip title={t('layout.navbar.unread', { count })}>
      <Badge count={count} size="small" data-testid="notice-badge" data-count={count}>
        <Button type="text" icon={<BellOutlined />} aria-label={t('layout.navbar.notifications')} />
      </Badge>
    </Tooltip>
  );
};
