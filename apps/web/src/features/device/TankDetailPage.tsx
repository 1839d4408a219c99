import { formatReading, percentLoad, type TankDetail } from '@fbox/contracts';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Progress from 'antd/es/progress';
import Space from 'antd/es/space';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { DeleteButton } from '../../components/DeleteButton';
import { StatusTag } from '../../components/StatusTag';
import { useCan } from '../../lib/access';
import { formatTime } from '../../lib/time';
import {
  showDrive,
  showHashrate,
  showLevel,
  showTemperature,
  showText,
  showWaterSpeed,
} from '../../lib/values';
import { useDeleteTank, useTankDetail, useTankHistory } from './api-tank';
import { DetailState } from './BoxDetailPage';
import { DeviceMiners } from './components/DeviceMiners';
import styles from './components/device.module.css';
import { HistoryCard, type HistoryChart } from './components/HistoryCard';
import { useHistoryChoice } from './components/HistoryControls';
import { TankControls } from './components/TankControls';
import { TankFormDialog } from './components/TankFormDialog';
import { seriesOf } from './history';
import { fboxDetailPath, useIdParam } from './use-id-param';

const plain = (v: number) => formatReading(v, '', 1);

const TankFields = ({ tank }: { tank: TankDetail }) => {
  const { t } = useTranslation();
  const pump = tank.oil_pump_percent ?? percentLoad(tank.oil_pump_efficiency, tank.electricity_hz);
  return (
    <Descriptions size="small" bordered column={{ xs: 1, md: 2, xl: 3 }}>
      <Descriptions.Item label={t('device.tank.workNumber')}>{showText(tank.work_number)}</Descriptions.Item>
      <Descriptions.Item label={t('device.tank.fbox')}>
        <Link to={fboxDetailPath({ id: tank.fbox_id, kind: '' })}>{tank.fbox_name}</Link>{' '}
        <StatusTag status={tank.fbox_status} />
      </Descriptions.Item>
      <Descriptions.Item label={t('device.tank.no')}>{tank.no}</Descriptions.Item>
      <Descriptions.Item label={t('device.tank.oilIn')}>
        {showTemperature(tank.oil_in_temp)}
      </Descriptions.Item>
      <Descriptions.Item label={t('device.tank.oilOut')}>
        {showTemperature(tank.oil_out_temp)}
      </Descriptions.Item>
      <Descriptions.Item label={t('device.tank.liquidLevel')}>
        {showLevel(tank.liquid_level)}
      </Descriptions.Item>
      <Descriptions.Item label={t('device.tank.pumpEfficiency')}>
        <Space>
          {showDrive(tank.oil_pump_efficiency)}
          {pump !== null && <Progress percent={pump} size="small" style={{ width: 120 }} />}
        </Space>
      </Descriptions.Item>
      <Descriptions.Item label={t('device.tank.waterIn')}>
        {showTemperature(tank.water_in_temp)}
      </Descriptions.Item>
      <Descriptions.Item label={t('device.tank.waterSpeed')}>
        {showWaterSpeed(tank.water_speed)}
      </Descriptions.Item>
      <Descriptions.Item label={t('device.tank.shortCircuit')}>
        {tank.short_circuit ? (
          <Tag color="error">{t('device.tank.shortAlarm')}</Tag>
        ) : (
          <Tag>{t('device.tank.shortOk')}</Tag>
        )}
      </Descriptions.Item>
      <Descriptions.Item label={t('device.tank.controlMode')}>
        {tank.control_mode === 'auto' ? t('device.tank.auto') : t('device.tank.manual')}
      </Descriptions.Item>
      <Descriptions.Item label={t('device.tank.energySaving')}>
        {tank.energy_saving ? t('common.state.on') : t('common.state.off')}
      </Descriptions.Item>
      <Descriptions.Item label={t('device.tank.probes')}>
        {tank.main_temperatures.map((probe) => showTemperature(probe)).join(' / ') || '-'}
      </Descriptions.Item>
      <Descriptions.Item label={t('device.tank.miners')}>
        {t('device.tank.minerCounts', { online: tank.miner_online, offline: tank.miner_offline })}
      </Descriptions.Item>
      <Descriptions.Item label={t('device.box.hashrate')}>{showHashrate(tank.hashrate)}</Descriptions.Item>
      <Descriptions.Item label={t('device.common.updatedAt')}>
        {tank.updated_at ? formatTime(tank.updated_at) : '-'}
      </Descriptions.Item>
    </Descriptions>
  );
};

const TankHistory = ({ id }: { id: number }) => {
  const { t } = useTranslation();
  const choice = useHistoryChoice();
  const history = useTankHistory(id, choice.range, choice.interval);
  const points = history.data?.points ?? [];
  const charts = useMemo(
    (): HistoryChart[] => [
      {
        testId: 'tank-chart-temperature',
        title: t('device.chart.oilTemperature'),
        series: [
          { name: `${t('device.tank.oilIn')} (°C)`, points: seriesOf(points, 'oil_in_temp') },
          { name: `${t('device.tank.oilOut')} (°C)`, points: seriesOf(points, 'oil_out_temp') },
        ],
        format: plain,
      },
      {
        testId: 'tank-chart-level',
        title: t('device.chart.liquidLevel'),
        series: [{ name: t('device.tank.liquidLevel'), points: seriesOf(points, 'liquid_level') }],
        format: (v) => formatReading(v, '%', 1),
        area: true,
      },
    ],
    [points, t],
  );
  return <HistoryCard choice={choice} loading={history.isPending} charts={charts} />;
};

/** Tank detail (/device/deviceDetail?id=): every field of spec §3, controls, history, miners. */
export const TankDetailPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = useIdParam();
  const detail = useTankDetail(id);
  const remove = useDeleteTank();
  const [editing, setEditing] = useState(false);
  const can = useCan();
  const tank = detail.data;

  if (!tank)
    return (
      <div className={styles.page} data-testid="tank-detail">
        <Card>
          <DetailState id={id} isError={detail.isError} onRetry={() => void detail.refetch()} />
        </Card>
      </div>
    );

  return (
    <div className={styles.page} data-testid="tank-detail">
      <Card>
        <div className={styles.headerRow}>
          <Space wrap>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {tank.name}
            </Typography.Title>
            <StatusTag status={tank.status} />
          </Space>
          <Space wrap>
            {can('tankEdit') && (
              <Button onClick={() => setEditing(true)} data-testid="tank-edit">
                {t('common.action.edit')}
              </Button>
            )}
            {can('tankDelete') && (
              <DeleteButton
                question={t('device.tank.deleteConfirm', { name: tank.name })}
                testId="tank-delete"
                onConfirm={() =>
                  remove.mutateAsync({ id: tank.id }).then(() => navigate('/device/deviceList'))
                }
              />
            )}
          </Space>
        </div>
      </Card>
      <TankFields tank={tank} />
      {(can('tankControllerSwitch') || can('tankOilSetting')) && <TankControls tank={tank} />}
      <TankHistory id={tank.id} />
      <DeviceMiners filter={{ tank_id: String(tank.id) }} />
      {editing && <TankFormDialog tank={tank} onClose={() => setEditing(false)} />}
    </div>
  );
};
