import { AlertOutlined } from '@ant-design/icons';
import Badge from 'antd/es/badge';
import Button from 'antd/es/button';
import Tooltip from 'antd/es/tooltip';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useOpenAlertCount } from '../features/alarm';

/** Open alerts of the selected mine, live; a click opens the realtime alerts. */
export const AlertBadge = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: count = 0 } = useOpenAlertCount();
  return (
    <Tooltip title={t('layout.navbar.openAlerts', { count })}>
      <Badge count={count} size="small" overflowCount={999} data-testid="alert-badge" data-count={count}>
        <Button
          type="text"
          icon={<AlertOutlined />}
          aria-label={t('layout.navbar.openAlerts', { count })}
          onClick={() => void navigate('/alarm/currentAlarm')}
          data-testid="alert-badge-open"
        />
      </Badge>
    </Tooltip>
  );
};
