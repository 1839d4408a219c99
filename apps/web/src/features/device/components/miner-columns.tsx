import type { MinerListItem } from '@fbox/contracts';
import Tag from 'antd/es/tag';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { ServerColumn } from '../../../components/ServerTable';
import { StatusTag } from '../../../components/StatusTag';
import { formatTime } from '../../../lib/time';
import { formatUptime, showHashrate, showPowerW, showTemperature, showText } from '../../../lib/values';
import { fboxDetailPath, minerDetailPath, tankDetailPath } from '../use-id-param';

/**
 * A reading that only means something while the miner reports: an offline miner's last hashrate,
 * chip temperatures or power are not its state now, so they show as a dash.
 */
export const whileOnline = (m: Pick<MinerListItem, 'status'>, value: number): number | null =>
  m.status === 'online' ? value : null;

/** Every miner field of spec §3 as a list column; rarer ones start hidden (column chooser). */
export interface MinerColumnOptions {
  modeLabels: Record<'high' | 'low', string>;
  statusOptions: { text: string; value: string }[];
  faultText: (codes: string) => string;
  /** A row's action menu (fixed at the right), when the caller may act on miners. */
  rowMenu?: (miner: MinerListItem) => ReactNode;
}

export const minerColumns = (
  t: TFunction,
  { modeLabels, statusOptions, faultText, rowMenu }: MinerColumnOptions,
): ServerColumn<MinerListItem>[] => [
  {
    key: 'worker',
    title: t('device.miner.worker'),
    sortField: 'worker',
    hideable: false,
    fixed: 'left',
    render: (_, m) => (
      <>
        <Link to={minerDetailPath(m.id)}>{showText(m.worker)}</Link>
        {m.pool_hijacked && (
          // Lock Pool's guard (features/fbox-config): another pool or worker than the configured one.
          <Tag
            color="red"
            title={t('fboxConfig.miner.poolHijackedHint')}
            style={{ marginInlineStart: 6 }}
            data-testid="pool-hijacked"
          >
            {t('fboxConfig.miner.poolHijacked')}
          </Tag>
        )}
      </>
    ),
  },
  { key: 'ip', title: t('device.miner.ip'), dataIndex: 'ip', sortField: 'ip' },
  { key: 'sn', title: t('device.miner.sn'), dataIndex: 'sn', sortField: 'sn' },
  {
    key: 'status',
    title: t('device.miner.network'),
    sortField: 'status',
    filterName: 'status',
    filterOptions: statusOptions,
    render: (_, m) => <StatusTag status={m.status} />,
  },
  { key: 'model', title: t('device.miner.model'), dataIndex: 'model', sortField: 'model' },
  { key: 'brand', title: t('device.miner.brand'), dataIndex: 'brand', sortField: 'brand' },
  {
    key: 'fbox_name',
    title: t('device.tank.fbox'),
    sortField: 'fbox_name',
    render: (_, m) => <Link to={fboxDetailPath({ id: m.fbox_id, kind: '' })}>{m.fbox_name}</Link>,
  },
  {
    key: 'tank_name',
    title: t('device.miner.tank'),
    sortField: 'tank_name',
    render: (_, m) => (m.tank_id ? <Link to={tankDetailPath(m.tank_id)}>{m.tank_name}</Link> : '-'),
  },
  {
    key: 'hashrate_realtime',
    title: t('device.miner.hashrateRealtime'),
    sortField: 'hashrate_realtime',
    render: (_, m) => showHashrate(whileOnline(m, m.hashrate_realtime)),
  },
  {
    key: 'hashrate_avg',
    title: t('device.miner.hashrateAvg'),
    sortField: 'hashrate_avg',
    render: (_, m) => showHashrate(m.hashrate_avg),
  },
  {
    key: 'hashrate_24h',
    title: t('device.miner.hashrate24h'),
    sortField: 'hashrate_24h',
    render: (_, m) => showHashrate(m.hashrate_24h),
  },
  {
    key: 'hashrate_theoretical',
    title: t('device.miner.hashrateTheoretical'),
    sortField: 'hashrate_theoretical',
    render: (_, m) => showHashrate(m.hashrate_theoretical),
  },
  {
    key: 'chip_avg_temp',
    title: t('device.miner.chipAvg'),
    sortField: 'chip_avg_temp',
    render: (_, m) => showTemperature(whileOnline(m, m.chip_avg_temp)),
  },
  {
    key: 'chip_max_temp',
    title: t('device.miner.chipMax'),
    sortField: 'chip_max_temp',
    render: (_, m) => showTemperature(whileOnline(m, m.chip_max_temp)),
  },
  { key: 'mode', title: t('device.miner.mode'), sortField: 'mode', render: (_, m) => modeLabels[m.mode] },
  {
    key: 'fault',
    title: t('device.miner.fault'),
    sortField: 'fault',
    render: (_, m) => (m.fault ? <Tag color="error">{faultText(m.fault)}</Tag> : '-'),
  },
  {
    key: 'uptime_s',
    title: t('device.miner.uptime'),
    sortField: 'uptime_s',
    render: (_, m) => formatUptime(t, m.uptime_s),
  },
  { key: 'pool', title: t('device.miner.pool'), dataIndex: 'pool', sortField: 'pool' },
  {
    key: 'pool_address',
    title: t('device.miner.poolAddress'),
    dataIndex: 'pool_address',
    sortField: 'pool_address',
    defaultHidden: true,
  },
  {
    key: 'firmware',
    title: t('device.miner.firmware'),
    dataIndex: 'firmware',
    sortField: 'firmware',
    defaultHidden: true,
  },
  {
    key: 'power_w',
    title: t('device.miner.power'),
    sortField: 'power_w',
    render: (_, m) => showPowerW(whileOnline(m, m.power_w)),
    defaultHidden: true,
  },
  {
    key: 'outlet',
    title: t('device.miner.outlet'),
    sortField: 'outlet',
    render: (_, m) => m.outlet ?? '-',
    defaultHidden: true,
  },
  {
    key: 'updated_at',
    title: t('device.common.updatedAt'),
    sortField: 'updated_at',
    render: (_, m) => formatTime(m.updated_at),
    defaultHidden: true,
  },
  ...(rowMenu
    ? [
        {
          key: 'actions',
          title: t('common.action.more'),
          fixed: 'right' as const,
          hideable: false,
          render: (_: unknown, m: MinerListItem) => rowMenu(m),
        },
      ]
    : []),
];
