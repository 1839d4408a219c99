import Modal from 'antd/es/modal';
import Spin from 'antd/es/spin';
import Tabs from 'antd/es/tabs';
import { useTranslation } from 'react-i18next';
import { useUserInfo } from '../api';
import { ProfileForm } from './ProfileForm';
import { SwitchesForm } from './SwitchesForm';
import { TotpPanel } from './TotpPanel';

/** Account settings: profile, device switches and Google Authenticator, each saved on its own. */
export const AccountSettingsDialog = ({ onClose }: { onClose: () => void }) => {
  const { t } = useTranslation();
  const { data: user } = useUserInfo();
  return (
    <Modal
      open
      title={t('auth.account.title')}
      width={640}
      mask={{ closable: false }}
      onCancel={onClose}
      footer={null}
    >
      {!user ? (
        <Spin />
      ) : (
        <Tabs
          items={[
            { key: 'profile', label: t('auth.account.profileTab'), children: <ProfileForm user={user} /> },
            { key: 'switches', label: t('auth.account.switchesTab'), children: <SwitchesForm user={user} /> },
            { key: 'totp', label: t('auth.account.totpTab'), children: <TotpPanel user={user} /> },
          ]}
        />
      )}
    </Modal>
  );
};
