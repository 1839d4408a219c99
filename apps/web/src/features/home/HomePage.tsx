import { EnvironmentOutlined } from '@ant-design/icons';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { useUserInfo } from '../auth';
import { useAreaList, useSelectedArea } from '../mines';
import { CreateFirstMine } from './CreateFirstMine';
import styles from './HomePage.module.css';
import { MineOverview } from './MineOverview';

/** Home (/index): the selected mine's devices, totals and last 24 hours. */
export const HomePage = () => {
  const { t } = useTranslation();
  const { data: areas = [] } = useAreaList();
  const area = useSelectedArea();
  const { data: user } = useUserInfo();

  if (areas.length === 0 || !area) {
    return (
      <div data-testid="home-page" className={styles.page}>
        <Card>
          <Empty description={t('home.noMine.title')}>
            {user?.is_masterID === 1 ? (
              <CreateFirstMine />
            ) : (
              <Typography.Text type="secondary">{t('home.noMine.askMaster')}</Typography.Text>
            )}
          </Empty>
        </Card>
      </div>
    );
  }

  return (
    <div data-testid="home-page" className={styles.page}>
      <Card>
        <Typography.Text type="secondary">{t('home.mine.label')}</Typography.Text>
        <Typography.Title level={3} style={{ margin: '4px 0' }}>
          <EnvironmentOutlined /> <span data-testid="home-mine-name">{area.area_name}</span>
        </Typography.Title>
        <Typography.Text type="secondary">
          {t('home.mine.frequency', { hz: area.electricity_hz })}
        </Typography.Text>
      </Card>
      <MineOverview areaId={area.id} />
    </div>
  );
};
