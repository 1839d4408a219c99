import { BellOutlined } from '@ant-design/icons';
import Badge from 'antd/es/badge';
import Button from 'antd/es/button';
import Tooltip from 'antd/es/tooltip';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { messagesPath, useUnreadCount } from '../features/messages';

/** Unread messages of the selected mine (and of no mine), live; a click opens Messages. */
export const NoticeBadge = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: count = 0 } = useUnreadCount();
  return (
    <Tooltip title={t('layout.navbar.unread', { count })}>
      <Badge count={count} size="small" data-testid="notice-badge" data-count={count}>
        <Button
          type="text"
          icon={<BellOutlined />}
          aria-label={t('layout.navbar.notifications')}
          onClick={() => void navigate(messagesPath)}
          data-testid="notice-badge-open"
        />
      </Badge>
    </Tooltip>
  );
};
