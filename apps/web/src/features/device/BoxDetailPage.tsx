import type { FboxDetail } from '@fbox/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Col from 'antd/es/col';
import Descriptions from 'antd/es/descriptions';
import Empty from 'antd/es/empty';
import Row from 'antd/es/row';
import Skeleton from 'antd/es/skeleton';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate } from 'react-router';
import { CommandStatusTag } from '../../components/CommandStatusTag';
import { DeleteButton } from '../../components/DeleteButton';
import { StatusTag } from '../../components/StatusTag';
import { useCan } from '../../lib/access';
import { formatTime } from '../../lib/time';
import {
  showEnergy,
  showHashrate,
  showLevel,
  showPercent,
  showPowerKw,
  showTemperature,
  showText,
  showVoltage,
} from '../../lib/values';
import { CamerasSection } from '../camera';
import { useDeleteFbox, useFboxDetail } from './api-fbox';
import { DeviceMiners } from './components/DeviceMiners';
import styles from './components/device.module.css';
import { FboxSettingDialog, FboxTransferDialog } from './components/FboxDialogs';
import { FboxFormDialog } from './components/FboxFormDialog';
import { FboxHistory } from './components/FboxHistory';
import { HydroCard } from './components/HydroCard';
import { useKindLabels } from './components/labels';
import { MetersCard } from './components/MetersCard';
import { MqttCard } from './components/MqttCard';
import { VoltagePanel } from './components/VoltageBand';
import { useTrackedCommands } from './use-command-outcomes';
import { fboxDetailPath, tankDetailPath, useIdParam } from './use-id-param';

type Dialog = 'edit' | 'settings' | 'transfer' | null;

/** Loading, missing id and failed read of a detail page, shared by the device details. */
export const DetailState = ({
  id,
  isError,
  onRetry,
}: {
  id: number;
  isError: boolean;
  onRetry: () => void;
}) => {
  const { t } = useTranslation();
  if (id === 0) return <Empty description={t('device.common.noId')} />;
  if (isError)
    return (
      <Alert
        type="error"
        showIcon
        title={t('device.common.loadError')}
        action={<Button onClick={onRetry}>{t('common.action.retry')}</Button>}
      />
    );
  return <Skeleton active paragraph={{ rows: 10 }} />;
};

const FboxOverview = ({ fbox }: { fbox: FboxDetail }) => {
  const { t } = useTranslation();
  // The API keeps the deployed system's English values; show them in the user's language.
  const immersionLabel = (status: string) =>
    status === 'On'
      ? t('device.box.immersionOn')
      : status === 'Off'
        ? t('device.box.immersionOff')
        : t('common.status.offline');
  const kindLabels = useKindLabels();
  return (
    <Descriptions size="small" bordered column={{ xs: 1, md: 2, xl: 3 }}>
      <Descriptions.Item label={t('field.kind')}>
        {fbox.fbox_type_name || kindLabels[fbox.kind]}
      </Descriptions.Item>
      <Descriptions.Item label={t('field.number')}>{showText(fbox.number)}</Descriptions.Item>
      <Descriptions.Item label={t('field.device_id')}>{fbox.device_id}</Descriptions.Item>
      <Descriptions.Item label={t('field.ip_range')}>{showText(fbox.ip_range)}</Descriptions.Item>
      <Descriptions.Item label={t('device.box.publicIp')}>{showText(fbox.public_ip)}</Descriptions.Item>
      <Descriptions.Item label={t('device.common.lastSeen')}>
        {fbox.last_seen_at ? formatTime(fbox.last_seen_at) : '-'}
      </Descriptions.Item>
      <Descriptions.Item label={t('device.box.temperature')}>
        {showTemperature(fbox.temperature)}
      </Descriptions.Item>
      <Descriptions.Item label={t('device.box.humidity')}>{showPercent(fbox.humidity)}</Descriptions.Item>
      <Descriptions.Item label={t('device.box.immersion')}>
        {immersionLabel(fbox.immersion_status)} · {showPercent(fbox.immersion_percent)}
      </Descriptions.Item>
      <Descriptions.Item label={t('device.box.power')}>
        {showPowerKw(fbox.total_realtime_power)}
      </Descriptions.Item>
      <Descriptions.Item label={t('device.box.hashrate')}>
        {showHashrate(fbox.realtime_power)}
      </Descriptions.Item>
      <Descriptions.Item label={t('device.box.todayEnergy')}>
        {showEnergy(fbox.today_use_power)}
      </Descriptions.Item>
      <Descriptions.Item label={t('device.box.minersOnline')}>{fbox.miner_online}</Descriptions.Item>
      <Descriptions.Item label={t('device.box.minersOffline')}>{fbox.miner_offline}</Descriptions.Item>
      <Descriptions.Item label={t('device.box.tanks')}>{fbox.tank_count}</Descriptions.Item>
      <Descriptions.Item label={t('field.voltage_min')}>{showVoltage(fbox.voltage_min)}</Descriptions.Item>
      <Descriptions.Item label={t('field.voltage_max')}>{showVoltage(fbox.voltage_max)}</Descriptions.Item>
      <Descriptions.Item label={t('field.reporting_interval')}>
        {t('device.history.seconds', { count: fbox.reporting_interval_s })}
      </Descriptions.Item>
      <Descriptions.Item label={t('field.temperature_max')}>
        {showTemperature(fbox.thresholds.temperature_max)}
      </Descriptions.Item>
      <Descriptions.Item label={t('field.humidity_max')}>
        {showPercent(fbox.thresholds.humidity_max)}
      </Descriptions.Item>
      <Descriptions.Item label={t('device.common.createdAt')}>
        {formatTime(fbox.created_at)}
      </Descriptions.Item>
    </Descriptions>
  );
};

const Collectors = ({ fbox }: { fbox: FboxDetail }) => {
  const { t } = useTranslation();
  return (
    <Card size="small" title={t('device.box.collectors')}>
      <Table
        rowKey="no"
        size="small"
        pagination={false}
        dataSource={fbox.collectors}
        columns={[
          { key: 'no', title: t('device.box.collectorNo'), dataIndex: 'no' },
          { key: 'mac', title: t('device.box.mac'), render: (_, c) => showText(c.mac) },
          { key: 'account', title: t('device.box.account'), render: (_, c) => showText(c.account) },
          {
            key: 'password',
            title: t('device.box.password'),
            render: (_, c) => (c.password_set ? t('device.box.passwordSet') : t('device.box.passwordNotSet')),
          },
        ]}
      />
    </Card>
  );
};

const Tanks = ({ fbox }: { fbox: FboxDetail }) => {
  const { t } = useTranslation();
  return (
    <Card size="small" title={t('device.tank.title')}>
      <Table
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={fbox.sub_box_list}
        scroll={{ x: 'max-content' }}
        columns={[
          {
            key: 'name',
            title: t('field.name'),
            render: (_, tank) => <Link to={tankDetailPath(tank.id)}>{tank.name}</Link>,
          },
          { key: 'no', title: t('device.tank.no'), dataIndex: 'no' },
          {
            key: 'work',
            title: t('device.tank.workNumber'),
            render: (_, tank) => showText(tank.work_number),
          },
          {
            key: 'status',
            title: t('common.status.title'),
            render: (_, tank) => <StatusTag status={tank.status} />,
          },
          {
            key: 'in',
            title: t('device.tank.oilIn'),
            render: (_, tank) => showTemperature(tank.oil_in_temp),
          },
          {
            key: 'out',
            title: t('device.tank.oilOut'),
            render: (_, tank) => showTemperature(tank.oil_out_temp),
          },
          {
            key: 'level',
            title: t('device.tank.liquidLevel'),
            render: (_, tank) => showLevel(tank.liquid_level),
          },
          {
            key: 'probes',
            title: t('device.tank.probes'),
            render: (_, tank) =>
              tank.main_temperatures.map((probe) => showTemperature(probe.num)).join(' / ') || '-',
          },
        ]}
      />
    </Card>
  );
};

const BoxDetail = ({ hydro }: { hydro: boolean }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = useIdParam();
  const detail = useFboxDetail(id);
  const can = useCan();
  const remove = useDeleteFbox();
  const commands = useTrackedCommands();
  const [dialog, setDialog] = useState<Dialog>(null);
  const fbox = detail.data;

  if (!fbox)
    return (
      <div className={styles.page} data-testid="box-detail">
        <Card>
          <DetailState id={id} isError={detail.isError} onRetry={() => void detail.refetch()} />
        </Card>
      </div>
    );

  // Links that don't know the kind land on the plain page; a hydro box has its own.
  if ((fbox.kind === 'hydro') !== hydro) return <Navigate to={fboxDetailPath(fbox)} replace />;
  const settingStatus = commands.statusOf('settings');
  return (
    <div className={styles.page} data-testid="box-detail">
      <Card>
        <div className={styles.headerRow}>
          <Space wrap>
            <Typography.Title level={4} style={{ margin: 0 }} data-testid="box-name">
              {fbox.name}
            </Typography.Title>
            <StatusTag status={fbox.status} />
            {fbox.kind === 'hydro' && <Tag color="blue">{t('device.box.kindHydro')}</Tag>}
            {settingStatus && <CommandStatusTag status={settingStatus} />}
          </Space>
          <Space wrap>
            {can('fboxEdit') && (
              <Button onClick={() => setDialog('edit')} data-testid="box-edit">
                {t('common.action.edit')}
              </Button>
            )}
            {can('fboxSetting') && (
              <Button onClick={() => setDialog('settings')} data-testid="box-settings">
                {t('device.box.settings')}
              </Button>
            )}
            {/* Everyone may read the configuration; saving it is for those who manage (the page says so). */}
            <Link to={`/device/fboxConfig?id=${fbox.id}`} data-testid="box-config">
              <Button>{t('fboxConfig.config.open')}</Button>
            </Link>
            {can('fboxTransfer') && (
              <Button onClick={() => setDialog('transfer')} data-testid="box-transfer">
                {t('device.box.transfer')}
              </Button>
            )}
            {can('fboxDelete') && (
              <DeleteButton
                question={t('device.box.deleteConfirm', { name: fbox.name })}
                testId="box-delete"
                onConfirm={() => remove.mutateAsync({ id: fbox.id }).then(() => navigate('/device/boxList'))}
              />
            )}
          </Space>
        </div>
      </Card>
      <FboxOverview fbox={fbox} />
      <Card size="small" title={t('device.box.voltage')}>
        <VoltagePanel volts={[fbox.voltage_a, fbox.voltage_b, fbox.voltage_c]} />
      </Card>
      {(hydro || fbox.kind === 'hydro') && <HydroCard fbox={fbox} />}
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <MetersCard
            fbox={fbox}
            statusOf={commands.statusOf}
            onCommand={commands.track}
            canReset={can('electricitySetMeter')}
          />
        </Col>
        <Col xs={24} xl={10}>
          <Collectors fbox={fbox} />
        </Col>
      </Row>
      <MqttCard fbox={fbox} canRegenerate={can('fboxRegenerateMqtt')} />
      <FboxHistory id={fbox.id} />
      <CamerasSection fboxId={fbox.id} />
      <Tanks fbox={fbox} />
      <DeviceMiners filter={{ fbox_id: String(fbox.id) }} />
      {dialog === 'edit' && <FboxFormDialog open fbox={fbox} onClose={() => setDialog(null)} />}
      {dialog === 'transfer' && <FboxTransferDialog fbox={fbox} onClose={() => setDialog(null)} />}
      {dialog === 'settings' && (
        <FboxSettingDialog
          fbox={fbox}
          onClose={() => setDialog(null)}
          onCommand={(commandId, status) => commands.track('settings', commandId, status as never)}
        />
      )}
    </div>
  );
};

/** FBOX detail (/device/boxDetail?id=). */
export const BoxDetailPage = () => <BoxDetail hydro={false} />;
/** Hydro FBOX detail (/device/boxDetailHydro?id=): adds the water loop. */
export const BoxDetailHydroPage = () => <BoxDetail hydro />;
