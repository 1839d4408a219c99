import { type Command, formatHashrate, formatReading, type MinerDetail } from '@fbox/contracts';
import { useQueryClient } from '@tanstack/react-query';
import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { CommandStatusTag } from '../../components/CommandStatusTag';
import { StatusTag } from '../../components/StatusTag';
import { formatTime } from '../../lib/time';
import { formatUptime, showHashrate, showPowerW, showTemperature, showText } from '../../lib/values';
import { useMinerDetail, useMinerHistory } from './api-miner';
import { DetailState } from './BoxDetailPage';
import { CommandOutcomesDrawer } from './components/CommandOutcomesDrawer';
import styles from './components/device.module.css';
import { HistoryCard, type HistoryChart } from './components/HistoryCard';
import { useHistoryChoice } from './components/HistoryControls';
import { minerName, useCommandText, useFaultText, useModeLabels } from './components/labels';
import { MinerBulkActions, useAnyBulkAction, useMinerActions } from './components/MinerBulkActions';
import { whileOnline } from './components/miner-columns';
import { seriesOf } from './history';
import { minerKeys } from './keys';
import type { OutcomeState } from './outcome-reducer';
import { useCommandOutcomes } from './use-command-outcomes';
import { fboxDetailPath, tankDetailPath, useIdParam } from './use-id-param';

const hashrate = (v: number) => formatHashrate(v);
const celsius = (v: number) => formatReading(v, '°C');

const MinerFields = ({ miner }: { miner: MinerDetail }) => {
  const { t } = useTranslation();
  const modes = useModeLabels();
  const faultText = useFaultText();
  return (
    <Descriptions size="small" bordered column={{ xs: 1, md: 2, xl: 3 }}>
      <Descriptions.Item label={t('device.miner.worker')}>{showText(miner.worker)}</Descriptions.Item>
      <Descriptions.Item label={t('device.miner.model')}>{showText(miner.model)}</Descriptions.Item>
      <Descriptions.Item label={t('device.miner.brand')}>{showText(miner.brand)}</Descriptions.Item>
      <Descriptions.Item label={t('device.miner.pool')}>{showText(miner.pool)}</Descriptions.Item>
      <Descriptions.Item label={t('device.miner.poolAddress')}>
        {showText(miner.pool_address)}
        {miner.pool_hijacked && (
          <Tag color="red" title={t('fboxConfig.miner.poolHijackedHint')} style={{ marginInlineStart: 6 }}>
            {t('fboxConfig.miner.poolHijacked')}
          </Tag>
        )}
      </Descriptions.Item>
      <Descriptions.Item label={t('device.miner.ip')}>{showText(miner.ip)}</Descriptions.Item>
      <Descriptions.Item label={t('device.miner.sn')}>{showText(miner.sn)}</Descriptions.Item>
      <Descriptions.Item label={t('device.miner.firmware')}>{showText(miner.firmware)}</Descriptions.Item>
      <Descriptions.Item label={t('device.tank.fbox')}>
        <Link to={fboxDetailPath({ id: miner.fbox_id, kind: '' })}>{miner.fbox_name}</Link>
      </Descriptions.Item>
      <Descriptions.Item label={t('device.miner.tank')}>
        {miner.tank_id ? <Link to={tankDetailPath(miner.tank_id)}>{miner.tank_name}</Link> : '-'}
      </Descriptions.Item>
      <Descriptions.Item label={t('device.miner.chipAvg')}>
        {showTemperature(whileOnline(miner, miner.chip_avg_temp))}
      </Descriptions.Item>
      <Descriptions.Item label={t('device.miner.chipMax')}>
        {showTemperature(whileOnline(miner, miner.chip_max_temp))}
      </Descriptions.Item>
      <Descriptions.Item label={t('device.miner.hashrateTheoretical')}>
        {showHashrate(miner.hashrate_theoretical)}
      </Descriptions.Item>
      <Descriptions.Item label={t('device.miner.hashrateRealtime')}>
        {showHashrate(whileOnline(miner, miner.hashrate_realtime))}
      </Descriptions.Item>
      <Descriptions.Item label={t('device.miner.hashrateAvg')}>
        {showHashrate(miner.hashrate_avg)}
      </Descriptions.Item>
      <Descriptions.Item label={t('device.miner.hashrate24h')}>
        {showHashrate(miner.hashrate_24h)}
      </Descriptions.Item>
      <Descriptions.Item label={t('device.miner.mode')}>{modes[miner.mode]}</Descriptions.Item>
      <Descriptions.Item label={t('device.miner.network')}>
        <StatusTag status={miner.status} />
      </Descriptions.Item>
      <Descriptions.Item label={t('device.miner.fault')}>
        {miner.fault ? <Tag color="error">{faultText(miner.fault)}</Tag> : '-'}
      </Descriptions.Item>
      <Descriptions.Item label={t('device.miner.uptime')}>
        <span data-testid="miner-uptime">{formatUptime(t, miner.uptime_s)}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t('device.miner.power')}>
        {showPowerW(whileOnline(miner, miner.power_w))}
      </Descriptions.Item>
      <Descriptions.Item label={t('device.miner.outlet')}>{miner.outlet ?? '-'}</Descriptions.Item>
      <Descriptions.Item label={t('device.common.updatedAt')}>
        {formatTime(miner.updated_at)}
      </Descriptions.Item>
    </Descriptions>
  );
};

const MinerHistory = ({ id }: { id: number }) => {
  const { t } = useTranslation();
  const choice = useHistoryChoice();
  const history = useMinerHistory(id, choice.range, choice.interval);
  const points = history.data?.points ?? [];
  const charts = useMemo(
    (): HistoryChart[] => [
      {
        testId: 'miner-chart-hashrate',
        title: t('device.chart.hashrate'),
        series: [{ name: t('device.miner.hashrateRealtime'), points: seriesOf(points, 'hashrate') }],
        format: hashrate,
        area: true,
      },
      {
        testId: 'miner-chart-temperature',
        title: t('device.chart.chipTemperature'),
        series: [{ name: t('device.miner.chipMax'), points: seriesOf(points, 'chip_max_temp') }],
        format: celsius,
      },
    ],
    [points, t],
  );
  return <HistoryCard choice={choice} loading={history.isPending} charts={charts} />;
};

/** The miner's recent commands; `live` holds statuses newer than the detail (this page's actions). */
const CommandHistory = ({ commands, live }: { commands: Command[]; live: OutcomeState }) => {
  const { t } = useTranslation();
  const commandText = useCommandText();
  const statusOf = (c: Command) => live.outcomes.find((o) => o.commandId === c.id)?.status ?? c.status;
  return (
    <Card size="small" title={t('device.command.history')} data-testid="miner-commands">
      <Table<Command>
        rowKey="id"
        size="small"
        dataSource={commands}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        scroll={{ x: 'max-content' }}
        columns={[
          {
            key: 'created',
            title: t('device.command.createdAt'),
            render: (_, c) => formatTime(c.created_at),
          },
          { key: 'kind', title: t('device.command.kind'), render: (_, c) => commandText(c) },
          {
            key: 'status',
            title: t('device.command.status'),
            render: (_, c) => (
              <span data-status={statusOf(c)}>
                <CommandStatusTag status={statusOf(c)} />
              </span>
            ),
          },
          {
            key: 'acked',
            title: t('device.command.ackedAt'),
            render: (_, c) => (c.acked_at ? formatTime(c.acked_at) : '-'),
          },
          { key: 'error', title: t('device.command.error'), render: (_, c) => c.error ?? '' },
        ]}
      />
    </Card>
  );
};

/**
 * Miner detail (/device/machineDetail?id=): every field, hashrate/temperature history, its commands,
 * and the list's actions on this one miner, with the same confirmations and live outcome.
 */
export const MinerDetailPage = () => {
  const id = useIdParam();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const detail = useMinerDetail(id);
  const miner = detail.data;
  const outcomes = useCommandOutcomes();
  const [drawer, setDrawer] = useState<{ open: boolean; title: string }>({ open: false, title: '' });
  const anyAction = useAnyBulkAction();
  const actions = useMinerActions({
    onStarted: ({ title, batchId, outcomes: rows }) => {
      outcomes.dispatch({ type: 'start', batchId, outcomes: rows });
      setDrawer({ open: true, title });
      // The new command joins the history below; its status then follows the live outcome.
      void queryClient.invalidateQueries({ queryKey: minerKeys.detail(id) });
    },
    onDeleted: () => void navigate('/device/machineList'),
  });
  if (!miner)
    return (
      <div className={styles.page} data-testid="miner-detail">
        <Card>
          <DetailState id={id} isError={detail.isError} onRetry={() => void detail.refetch()} />
        </Card>
      </div>
    );
  return (
    <div className={styles.page} data-testid="miner-detail">
      <Card>
        <Space wrap>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {miner.worker || miner.sn}
          </Typography.Title>
          <StatusTag status={miner.status} />
        </Space>
        {anyAction && (
          <div style={{ marginTop: 12 }} data-testid="miner-detail-actions">
            {actions.holder}
            <MinerBulkActions actions={actions} ids={[miner.id]} name={minerName(miner)} />
          </div>
        )}
      </Card>
      <MinerFields miner={miner} />
      <MinerHistory id={miner.id} />
      <CommandHistory commands={miner.commands} live={outcomes.state} />
      <CommandOutcomesDrawer
        open={drawer.open}
        title={drawer.title}
        state={outcomes.state}
        names={new Map([[miner.id, minerName(miner)]])}
        onClose={() => setDrawer((d) => ({ ...d, open: false }))}
      />
    </div>
  );
};
