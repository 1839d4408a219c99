import { DownOutlined } from '@ant-design/icons';
import type { MenuProps } from 'antd';
import Avatar from 'antd/es/avatar';
import Dropdown from 'antd/es/dropdown';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { avatarUrl } from '../components/avatars';
import { logout, useUserInfo } from '../features/auth';
import { lazyNamed } from '../lib/lazy-named';
import { clearSession } from '../lib/session';
import styles from './Layout.module.css';

type Dialog = 'push' | 'account' | 'password' | null;

/** The dialogs (forms, QR code, channel tests) are fetched when one is first opened, not with every page. */
const dialogs = () => import('../features/auth/dialogs');
const PushSettingsDialog = lazyNamed(dialogs, 'PushSettingsDialog');
const AccountSettingsDialog = lazyNamed(dialogs, 'AccountSettingsDialog');
const ChangePasswordDialog = lazyNamed(dialogs, 'ChangePasswordDialog');

/** Avatar and name with home, push settings, account settings, change password and log out. */
export const UserMenu = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: user } = useUserInfo();
  const [dialog, setDialog] = useState<Dialog>(null);

  const onLogout = async () => {
    try {
      await logout();
    } catch {
      // The local session ends even when the server cannot be told.
    }
    clearSession();
    navigate('/login', { replace: true });
  };

  const items: MenuProps['items'] = [
    { key: 'home', label: <span data-testid="menu-home">{t('layout.user.home')}</span> },
    { key: 'push', label: <span data-testid="menu-push">{t('layout.user.push')}</span> },
    { key: 'account', label: <span data-testid="menu-account">{t('layout.user.account')}</span> },
    { key: 'password', label: <span data-testid="menu-password">{t('layout.user.password')}</span> },
    { type: 'divider' },
    { key: 'logout', label: <span data-testid="menu-logout">{t('layout.user.logout')}</span> },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'home') navigate('/index');
    else if (key === 'logout') void onLogout();
    else setDialog(key as Dialog);
  };

  return (
    <>
      <Dropdown menu={{ items, onClick }} trigger={['click']} placement="bottomRight">
        <button type="button" className={styles.userTrigger} data-testid="user-menu">
          <Avatar size={28} src={avatarUrl(user?.headimg ?? 1)} alt={t('field.headimg')} />
          <span className={styles.userName}>{user?.nickname || user?.username}</span>
          <DownOutlined className={styles.userCaret} />
        </button>
      </Dropdown>
      <Suspense fallback={null}>
        {dialog === 'push' && <PushSettingsDialog onClose={() => setDialog(null)} />}
        {dialog === 'account' && <AccountSettingsDialog onClose={() => setDialog(null)} />}
        {dialog === 'password' && <ChangePasswordDialog onClose={() => setDialog(null)} />}
      </Suspense>
    </>
  );
};
