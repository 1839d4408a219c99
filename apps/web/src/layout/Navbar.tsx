import { MenuFoldOutlined, MenuUnfoldOutlined, SettingOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Tooltip from 'antd/es/tooltip';
import { useTranslation } from 'react-i18next';
import { LangSwitch } from '../components/LangSwitch';
import { useStore } from '../lib/store';
import { deviceStore, sidebarStore, toggleSidebar } from '../lib/ui-store';
import { AlertBadge } from './AlertBadge';
import { AreaSelect } from './AreaSelect';
import { Breadcrumbs } from './Breadcrumbs';
import styles from './Layout.module.css';
import { LiveClock } from './LiveClock';
import { NoticeBadge } from './NoticeBadge';
import { TimeZoneSelect } from './TimeZoneSelect';
import { UserMenu } from './UserMenu';

/** Top bar: hamburger, breadcrumb, mine, time zone and clock, alerts, language, settings, user. */
export const Navbar = ({ onOpenSettings }: { onOpenSettings: () => void }) => {
  const { t } = useTranslation();
  const opened = useStore(sidebarStore);
  const mobile = useStore(deviceStore) === 'mobile';
  return (
    <div className={styles.navbar}>
      <div className={styles.navLeft}>
        <Button
          type="text"
          data-testid="hamburger"
          aria-label={t('layout.navbar.toggleSidebar')}
          aria-expanded={opened}
          icon={opened ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
          onClick={toggleSidebar}
        />
        {!mobile && <Breadcrumbs />}
      </div>
      <div className={styles.navRight}>
        {!mobile && <LiveClock />}
        <TimeZoneSelect />
        <AreaSelect />
        <AlertBadge />
        <NoticeBadge />
        <LangSwitch />
        <Tooltip title={t('layout.settings.title')}>
          <Button
            type="text"
            icon={<SettingOutlined />}
            data-testid="settings-trigger"
            aria-label={t('layout.settings.title')}
            onClick={onOpenSettings}
          />
        </Tooltip>
        <UserMenu />
      </div>
    </div>
  );
};
