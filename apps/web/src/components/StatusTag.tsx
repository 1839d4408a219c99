import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';

/** Online (green) or offline (grey) of an FBOX, tank or miner (spec §4). */
export const StatusTag = ({ status }: { status: 'online' | 'offline' }) => {
  const { t } = useTranslation();
  return status === 'online' ? (
    <Tag color="success">{t('common.status.online')}</Tag>
  ) : (
    <Tag color="default">{t('common.status.offline')}</Tag>
  );
};
