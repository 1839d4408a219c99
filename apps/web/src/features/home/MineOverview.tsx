import { formatEnergy, formatHashrate, formatReading } from '@fbox/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Col from 'antd/es/col';
import Empty from 'antd/es/empty';
import Row from 'antd/es/row';
import Skeleton from 'antd/es/skeleton';
import Statistic from 'antd/es/statistic';
import Typography from 'antd/es/typography';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { TimeSeriesChart } from '../../components/charts/TimeSeriesChart';
import { useAppIndex } from './api';
import styles from './HomePage.module.css';

const showPower = (kw: number) => formatReading(kw, 'kW', 2);

/** One online/offline pair. */
const CountCard = ({
  title,
  online,
  offline,
  testId,
}: {
  title: string;
  online: number;
  offline: number;
  testId?: string;
}) => {
  const { t } = useTranslation();
  return (
    <Card size="small" data-testid={testId}>
      <Typography.Text type="secondary">{title}</Typography.Text>
      <div className={styles.counts}>
        <Statistic
          title={t('common.status.online')}
          value={online}
          styles={{ content: { color: '#52c41a' } }}
        />
        <Statistic
          title={t('common.status.offline')}
          value={offline}
          styles={{ content: { color: '#8c8c8c' } }}
        />
      </div>
    </Card>
  );
};

/** The mine's device counts, totals and 24 h charts, all from `fbox.total/getappindex`. */
export const MineOverview = ({ areaId }: { areaId: number }) => {
  const { t } = useTranslation();
  const index = useAppIndex(areaId);
  const points = index.data?.series.points;
  const hashrateSeries = useMemo(
    () => [
      { name: t('home.chart.hashrate'), points: (points ?? []).map((p) => [p.ts, p.hashrate] as const) },
    ],
    [points, t],
  );
  const powerSeries = useMemo(
    () => [{ name: t('home.chart.power'), points: (points ?? []).map((p) => [p.ts, p.power_kw] as const) }],
    [points, t],
  );

  if (index.isPending)
    return (
      <Card>
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    );
  if (index.isError || !index.data)
    return (
      <Alert
        type="error"
        showIcon
        title={t('home.overview.error')}
        action={<Button onClick={() => void index.refetch()}>{t('common.action.retry')}</Button>}
      />
    );

  const { fbox, tank, miner } = index.data;
  if (fbox.online + fbox.offline === 0)
    return (
      <Card title={t('home.overview.title')}>
        <Empty description={t('home.devices.empty')} />
      </Card>
    );

  return (
    <>
      <Typography.Title level={5} style={{ margin: 0 }}>
        {t('home.overview.title')}
      </Typography.Title>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={8}>
          <CountCard
            title={t('home.stat.fbox')}
            online={fbox.online}
            offline={fbox.offline}
            testId="home-stat-fbox"
          />
        </Col>
        <Col xs={24} md={8}>
          <CountCard
            title={t('home.stat.tank')}
            online={tank.online}
            offline={tank.offline}
            testId="home-stat-tank"
          />
        </Col>
        <Col xs={24} md={8}>
          <CountCard
            title={t('home.stat.miner')}
            online={miner.online}
            offline={miner.offline}
            testId="home-stat-miners"
          />
        </Col>
        <Col xs={24} md={8}>
          <Card size="small" data-testid="home-stat-hashrate">
            <Statistic title={t('home.stat.hashrate')} value={formatHashrate(index.data.hashrate)} />
          </Card>
        </Col>
        <Col xs={24} md={8}>
          <Card size="small" data-testid="home-stat-power">
            <Statistic title={t('home.stat.power')} value={showPower(index.data.power_kw)} />
          </Card>
        </Col>
        <Col xs={24} md={8}>
          <Card size="small" data-testid="home-stat-energy">
            <Statistic title={t('home.stat.energy')} value={formatEnergy(index.data.today_energy_kwh)} />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card size="small" title={t('home.chart.hashrate24h')}>
            <TimeSeriesChart
              testId="home-chart-hashrate"
              series={hashrateSeries}
              format={(v) => formatHashrate(v)}
              area
            />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card size="small" title={t('home.chart.power24h')}>
            <TimeSeriesChart testId="home-chart-power" series={powerSeries} format={showPower} area />
          </Card>
        </Col>
      </Row>
    </>
  );
};
