import { DownloadOutlined } from '@ant-design/icons';
import { formatHashrate, type Revenue, type RevenueDay, type RevenueSubaccount } from '@fbox/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import DatePicker from 'antd/es/date-picker';
import Dropdown from 'antd/es/dropdown';
import Empty from 'antd/es/empty';
import Segmented from 'antd/es/segmented';
import Statistic from 'antd/es/statistic';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TimeSeriesChart } from '../../components/charts/TimeSeriesChart';
import { download } from '../../lib/api';
import { areaScope } from '../../lib/area-scope';
import { useStore } from '../../lib/store';
import { formatTime, timeZoneStore } from '../../lib/time';
import { NO_DATA, showHashrate } from '../../lib/values';
import { DailyRevenueChart } from './DailyRevenueChart';
import { RevenueSettingsCard } from './RevenueSettingsCard';
import { useRevenue } from './revenue-api';
import { presetRange, type RevenuePreset, revenuePresets, todayIn } from './revenue-range';

const coinText = (value: number | null | undefined, coin: string) =>
  value === null || value === undefined ? NO_DATA : `${value.toFixed(8)} ${coin}`;
const moneyText = (value: number | null | undefined, fiat: string) =>
  value === null || value === undefined
    ? NO_DATA
    : `${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${fiat}`;

const sourceColor = { pool: 'blue', estimated: 'gold', none: 'default' } as const;

const SourceTag = ({ source }: { source: RevenueDay['source'] }) => {
  const { t } = useTranslation();
  return <Tag color={sourceColor[source]}>{t(`revenue.source.${source}`)}</Tag>;
};

const dayColumns = (t: TFunction, revenue: Revenue) => {
  const { coin, fiat } = revenue.settings;
  return [
    { key: 'day', title: t('revenue.column.day'), dataIndex: 'day' },
    {
      key: 'source',
      title: t('revenue.column.source'),
      render: (_: unknown, d: RevenueDay) => <SourceTag source={d.source} />,
    },
    {
      key: 'coin',
      title: t('revenue.column.coin', { coin }),
      render: (_: unknown, d: RevenueDay) => coinText(d.coin, coin),
    },
    {
      key: 'hashrate',
      title: t('revenue.column.hashrate'),
      render: (_: unknown, d: RevenueDay) => showHashrate(d.miner_hashrate),
    },
    {
      key: 'fiat',
      title: t('revenue.column.fiat', { fiat }),
      render: (_: unknown, d: RevenueDay) => moneyText(d.fiat, fiat),
    },
    {
      key: 'energy',
      title: t('revenue.column.energy'),
      render: (_: unknown, d: RevenueDay) => (d.energy_kwh === null ? NO_DATA : `${d.energy_kwh} kWh`),
    },
    {
      key: 'cost',
      title: t('revenue.column.cost', { fiat }),
      render: (_: unknown, d: RevenueDay) => moneyText(d.power_cost, fiat),
    },
    {
      key: 'profit',
      title: t('revenue.column.profit', { fiat }),
      render: (_: unknown, d: RevenueDay) => moneyText(d.profit, fiat),
    },
  ];
};

/** The KPI cards of the range. */
const Totals = ({ revenue }: { revenue: Revenue }) => {
  const { t } = useTranslation();
  const { totals, settings } = revenue;
  const poolShare = totals.coin > 0 ? Math.round((totals.pool_coin / totals.coin) * 100) : null;
  const cards = [
    { key: 'coin', title: t('revenue.kpi.coin'), value: coinText(totals.coin, settings.coin) },
    { key: 'fiat', title: t('revenue.kpi.fiat'), value: moneyText(totals.fiat, settings.fiat) },
    { key: 'cost', title: t('revenue.kpi.cost'), value: moneyText(totals.power_cost, settings.fiat) },
    { key: 'profit', title: t('revenue.kpi.profit'), value: moneyText(totals.profit, settings.fiat) },
    {
      key: 'share',
      title: t('revenue.kpi.share'),
      value:
        poolShare === null
          ? NO_DATA
          : t('revenue.kpi.shareValue', { pool: poolShare, estimated: 100 - poolShare }),
      hint: t('revenue.kpi.days', {
        pool: totals.pool_days,
        estimated: totals.estimated_days,
        none: totals.none_days,
      }),
    },
  ];
  return (
    <div style={{ display: 'grid', gap: 16, gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))' }}>
      {cards.map((c) => (
        <Card key={c.key} size="small" data-testid={`revenue-kpi-${c.key}`}>
          <Statistic title={c.title} value={c.value} valueStyle={{ fontSize: 20 }} />
          {c.hint && <div style={{ color: 'var(--ant-color-text-secondary)', fontSize: 12 }}>{c.hint}</div>}
        </Card>
      ))}
    </div>
  );
};

/** One pool subaccount: its sync state, and pool-side against miner-side hashrate with the gap. */
const SubaccountHashrate = ({ subaccount }: { subaccount: RevenueSubaccount }) => {
  const { t } = useTranslation();
  const s = subaccount;
  const series = [
    {
      name: t('revenue.hashrate.pool'),
      points: s.points.map((p) => [p.ts, p.pool] as const),
      color: '#1677ff',
    },
    {
      name: t('revenue.hashrate.miners'),
      points: s.points.map((p) => [p.ts, p.miners] as const),
      color: '#52c41a',
    },
  ];
  const gap =
    s.gap_pct === null ? (
      <Tag>{t('revenue.hashrate.noGap')}</Tag>
    ) : (
      <Tag color={Math.abs(s.gap_pct) >= 5 ? 'red' : 'green'} data-testid="revenue-gap">
        {t('revenue.hashrate.gap', { pct: s.gap_pct })}
      </Tag>
    );
  return (
    <Card
      size="small"
      title={`${s.pool} · ${s.subaccount} (${s.coin})`}
      extra={gap}
      data-testid={`revenue-subaccount-${s.id}`}
    >
      {s.sync?.status === 'failed' && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 8 }}
          title={t('revenue.sync.failed', { reason: s.sync.last_error ?? '' })}
        />
      )}
      {s.sync?.status === 'unsupported' && (
        <Alert type="info" showIcon style={{ marginBottom: 8 }} title={t('revenue.sync.unsupported')} />
      )}
      {!s.has_api_key && (
        <Alert type="info" showIcon style={{ marginBottom: 8 }} title={t('revenue.sync.noKey')} />
      )}
      <div style={{ color: 'var(--ant-color-text-secondary)', fontSize: 12, marginBottom: 4 }}>
        {t('revenue.hashrate.matching', { prefix: `${s.subaccount}.`, count: s.miner_count })}
        {s.sync?.last_success_at
          ? ` · ${t('revenue.sync.ok', { time: formatTime(s.sync.last_success_at) })}`
          : ''}
      </div>
      <TimeSeriesChart
        series={series}
        format={(v) => formatHashrate(v)}
        height={240}
        testId="revenue-hashrate-chart"
      />
    </Card>
  );
};

/**
 * Revenue (catalogue screen): what the mine earned per local day, in coins and in the user's fiat
 * currency, where it comes from (pool-reported or estimated), the power cost and the profit; each
 * pool subaccount's pool-side against miner-side hashrate; the mine's revenue settings.
 */
export const RevenuePage = () => {
  const { t } = useTranslation();
  const zone = useStore(timeZoneStore);
  const today = todayIn(zone);
  const [preset, setPreset] = useState<RevenuePreset>('30d');
  const [custom, setCustom] = useState<[string, string]>(() => presetRange('30d', today));
  const [unit, setUnit] = useState<'coin' | 'fiat'>('fiat');
  const [from, to] = preset === 'custom' ? custom : presetRange(preset, today);
  const revenue = useRevenue(from, to);
  const data = revenue.data;

  const exportAs = (format: 'csv' | 'xlsx') => {
    void download(
      'revenueExport',
      { ...areaScope(), from_day: from, to_day: to, format },
      `revenue.${format}`,
    ).catch(() => undefined);
  };
  const missingSettings = data && (data.settings.hashprice === null || data.settings.coin_price === null);

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }} data-testid="revenue-page">
      <Card size="small">
        <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap', alignItems: 'center' }}>
          <Segmented<RevenuePreset>
            data-testid="revenue-preset"
            value={preset}
            onChange={(value) => {
              if (value === 'custom') setCustom([from, to]);
              setPreset(value);
            }}
            options={revenuePresets.map((p) => ({ value: p, label: t(`revenue.preset.${p}`) }))}
          />
          {preset === 'custom' && (
            <DatePicker.RangePicker
              data-testid="revenue-range"
              allowClear={false}
              value={[dayjs(custom[0]), dayjs(custom[1])]}
              disabledDate={(d) => d.format('YYYY-MM-DD') > today}
              onChange={(range) => {
                if (range?.[0] && range[1])
                  setCustom([range[0].format('YYYY-MM-DD'), range[1].format('YYYY-MM-DD')]);
              }}
            />
          )}
          <span style={{ color: 'var(--ant-color-text-secondary)' }} data-testid="revenue-range-text">
            {t('revenue.range', { from, to, zone: data?.time_zone ?? zone ?? '' })}
          </span>
          <div style={{ flex: 1 }} />
          <Dropdown
            menu={{
              items: [
                { key: 'csv', label: 'CSV', onClick: () => exportAs('csv') },
                { key: 'xlsx', label: 'XLSX', onClick: () => exportAs('xlsx') },
              ],
            }}
          >
            <Button icon={<DownloadOutlined />} data-testid="revenue-export">
              {t('revenue.export')}
            </Button>
          </Dropdown>
        </div>
      </Card>

      {revenue.isError && (
        <Alert
          type="error"
          showIcon
          title={t('revenue.error')}
          action={
            <Button size="small" onClick={() => void revenue.refetch()}>
              {t('common.action.retry')}
            </Button>
          }
          data-testid="revenue-error"
        />
      )}
      {data?.subaccounts
        .filter((s) => s.sync?.status === 'failed')
        .map((s) => (
          <Alert
            key={s.id}
            type="warning"
            showIcon
            title={t('revenue.sync.failedFor', {
              subaccount: s.subaccount,
              reason: s.sync?.last_error ?? '',
            })}
          />
        ))}
      {missingSettings && <Alert type="info" showIcon title={t('revenue.missingSettings')} />}

      {data ? (
        <Totals revenue={data} />
      ) : (
        !revenue.isError && <Card loading size="small" data-testid="revenue-loading" />
      )}

      <Card
        size="small"
        title={t('revenue.chart.title')}
        extra={
          <Segmented<'coin' | 'fiat'>
            size="small"
            value={unit}
            onChange={setUnit}
            options={[
              { value: 'fiat', label: data?.settings.fiat ?? 'USD' },
              { value: 'coin', label: data?.settings.coin ?? 'BTC' },
            ]}
          />
        }
      >
        <div style={{ color: 'var(--ant-color-text-secondary)', fontSize: 12, marginBottom: 8 }}>
          {t('revenue.sourcesNote')}
        </div>
        <DailyRevenueChart
          days={data?.days ?? []}
          unit={unit}
          coin={data?.settings.coin ?? 'BTC'}
          fiat={data?.settings.fiat ?? 'USD'}
          loading={revenue.isPending}
        />
      </Card>

      <Card size="small" title={t('revenue.table.title')}>
        <Table<RevenueDay>
          data-testid="revenue-table"
          size="small"
          rowKey="day"
          loading={revenue.isFetching}
          dataSource={data ? [...data.days].reverse() : []}
          columns={data ? dayColumns(t, data) : []}
          pagination={{ pageSize: 31, hideOnSinglePage: true }}
          scroll={{ x: 'max-content' }}
          locale={{
            emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('common.table.empty')} />,
          }}
        />
      </Card>

      <Card size="small" title={t('revenue.hashrate.title')}>
        <div style={{ color: 'var(--ant-color-text-secondary)', fontSize: 12, marginBottom: 8 }}>
          {t('revenue.hashrate.explain')}
        </div>
        {data && data.subaccounts.length === 0 && (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('revenue.hashrate.none')} />
        )}
        <div style={{ display: 'grid', gap: 16 }}>
          {data?.subaccounts.map((s) => (
            <SubaccountHashrate key={s.id} subaccount={s} />
          ))}
        </div>
      </Card>

      <RevenueSettingsCard />
    </div>
  );
};
