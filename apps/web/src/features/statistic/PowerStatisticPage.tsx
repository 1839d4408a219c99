import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import {
  type ElectricityPriceItem,
  type EnergyBucketName,
  energyBuckets,
  formatEnergy,
  formatReading,
  type PowerStatistic,
  statisticLimits,
} from '@fbox/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Col from 'antd/es/col';
import DatePicker from 'antd/es/date-picker';
import Dropdown from 'antd/es/dropdown';
import Form from 'antd/es/form';
import Row from 'antd/es/row';
import Segmented from 'antd/es/segmented';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Statistic from 'antd/es/statistic';
import Table, { type ColumnsType } from 'antd/es/table';
import Typography from 'antd/es/typography';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TimeSeriesChart } from '../../components/charts/TimeSeriesChart';
import { DeleteButton } from '../../components/DeleteButton';
import { NumberInput } from '../../components/NumberInput';
import { useCan } from '../../lib/access';
import { download } from '../../lib/api';
import { areaScope } from '../../lib/area-scope';
import { showServerErrors } from '../../lib/server-errors';
import { useStore } from '../../lib/store';
import { formatTime, timeZoneStore } from '../../lib/time';
import { useFboxOptions } from '../device/api-fbox';
import { type Day, dayRange } from '../oplog/day-range';
import { type PowerQuery, useAddPrice, useDeletePrice, usePowerStatistic, usePrices } from './api';
import { EnergyBarChart } from './EnergyBarChart';

const dayMs = 86_400_000;
const presets = ['today', 'day', 'week', 'month', 'custom'] as const;
type Preset = (typeof presets)[number];

const toDay = (d: Dayjs): Day => ({ year: d.year(), month: d.month() + 1, day: d.date() });

/** Today in the user's zone (browser time when unknown), as a calendar day. */
const todayIn = (zone: string | null): Dayjs => {
  if (zone === null) return dayjs();
  const shifted = new Date(Date.now() + Number(zone.replace('UTC', '')) * 3_600_000);
  return dayjs(new Date(shifted.getUTCFullYear(), shifted.getUTCMonth(), shifted.getUTCDate()));
};

/** The range of a preset, `[from, to)` in epoch ms, with local midnights of the user's zone. */
export const presetRange = (
  preset: Preset,
  zone: string | null,
  day: Dayjs,
  custom: [Dayjs, Dayjs] | null,
): { from: number; to: number } | null => {
  const today = todayIn(zone);
  if (preset === 'today') return dayRange(toDay(today), toDay(today), zone);
  if (preset === 'day') return dayRange(toDay(day), toDay(day), zone);
  if (preset === 'week') {
    // Weeks start on Monday.
    const monday = today.subtract((today.day() + 6) % 7, 'day');
    return dayRange(toDay(monday), toDay(monday.add(6, 'day')), zone);
  }
  if (preset === 'month') return dayRange(toDay(today.startOf('month')), toDay(today.endOf('month')), zone);
  return custom ? dayRange(toDay(custom[0]), toDay(custom[1]), zone) : null;
};

/** A bucket's start as the table, the chart and the export show it. */
export const periodLabel = (ts: number, bucket: EnergyBucketName, zone: string | null): string => {
  const text = formatTime(ts, zone);
  return bucket === 'hour' ? text.slice(0, 16) : bucket === 'day' ? text.slice(0, 10) : text.slice(0, 7);
};

const money = (value: number | null | undefined) =>
  value === null || value === undefined ? '-' : value.toFixed(2);
const kw = (value: number | null | undefined) => formatReading(value ?? -999, 'kW');
const efficiency = (value: number | null | undefined) => formatReading(value ?? -999, 'J/TH');

type StatRow = PowerStatistic['rows'][number];

/** Power Statistics (spec §2 `/statistic/powerStatistic`, issue 14). */
export const PowerStatisticPage = () => {
  const { t } = useTranslation();
  const zone = useStore(timeZoneStore);
  const [preset, setPreset] = useState<Preset>('today');
  const [day, setDay] = useState<Dayjs>(() => todayIn(zone).subtract(1, 'day'));
  const [custom, setCustom] = useState<[Dayjs, Dayjs] | null>(null);
  const [bucket, setBucket] = useState<EnergyBucketName>('hour');
  const [fboxId, setFboxId] = useState<number | undefined>(undefined);
  const fboxes = useFboxOptions();
  const range = presetRange(preset, zone, day, custom);
  const maxDays = statisticLimits.maxDays[bucket];
  const tooLong = range !== null && range.to - range.from > maxDays * dayMs;
  const query: PowerQuery = {
    from: range?.from ?? 0,
    to: range?.to ?? 0,
    bucket,
    ...(fboxId === undefined ? {} : { fbox_id: fboxId }),
  };
  const stat = usePowerStatistic(query, range !== null && !tooLong);
  const data = range !== null && !tooLong ? stat.data : undefined;

  const choosePreset = (next: Preset) => {
    setPreset(next);
    // A sensible resolution for the range; the user may change it.
    setBucket(next === 'today' || next === 'day' ? 'hour' : 'day');
  };

  const names = useMemo(() => new Map((data?.fboxes ?? []).map((f) => [f.id, f.name])), [data]);
  const bars = useMemo(() => {
    const buckets = data?.buckets ?? [];
    const labels = buckets.map((b) => periodLabel(b.bucket_ts, data!.bucket, zone));
    const index = new Map(buckets.map((b, i) => [b.bucket_ts, i]));
    const stacks = (data?.fboxes ?? [])
      .map((f) => {
        const values: (number | null)[] = buckets.map(() => null);
        for (const r of data!.rows) if (r.fbox_id === f.id) values[index.get(r.bucket_ts)!] = r.energy_kwh;
        return { name: f.name, values };
      })
      .filter((s) => s.values.some((v) => v !== null));
    return { labels, stacks, cost: buckets.map((b) => b.cost), resets: buckets.map((b) => b.resets) };
  }, [data, zone]);
  const profile = useMemo(
    () => [
      {
        name: t('power.chart.average'),
        points: (data?.profile ?? []).map((p) => [p.ts, p.power_kw] as const),
      },
      { name: t('power.chart.peak'), points: (data?.profile ?? []).map((p) => [p.ts, p.peak_kw] as const) },
    ],
    [data, t],
  );

  const columns: ColumnsType<StatRow> = [
    {
      title: t('power.column.period'),
      dataIndex: 'bucket_ts',
      render: (ts: number) => periodLabel(ts, data?.bucket ?? bucket, zone),
    },
    { title: t('field.fbox_name'), dataIndex: 'fbox_id', render: (id: number) => names.get(id) ?? '-' },
    { title: t('power.column.meter1'), dataIndex: 'meter1_kwh', align: 'right', render: formatEnergyCell },
    { title: t('power.column.meter2'), dataIndex: 'meter2_kwh', align: 'right', render: formatEnergyCell },
    { title: t('power.column.energy'), dataIndex: 'energy_kwh', align: 'right', render: formatEnergyCell },
    { title: t('power.column.cost'), dataIndex: 'cost', align: 'right', render: money },
    { title: t('power.column.peak'), dataIndex: 'peak_kw', align: 'right', render: kw },
    { title: t('power.column.efficiency'), dataIndex: 'j_per_th', align: 'right', render: efficiency },
    {
      title: t('power.column.resets'),
      dataIndex: 'resets',
      align: 'right',
      render: (n: number) => (n > 0 ? <Typography.Text type="warning">{n} ↺</Typography.Text> : n),
    },
  ];

  const exportAs = (format: 'csv' | 'xlsx') => {
    void download(
      'powerStatisticExport',
      { ...areaScope(), ...query, format },
      `power-statistic.${format}`,
    ).catch(() => undefined);
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="power-statistic">
      <Card>
        <Space wrap>
          <Segmented<Preset>
            value={preset}
            onChange={choosePreset}
            options={presets.map((p) => ({ value: p, label: t(`power.range.${p}`) }))}
            data-testid="power-range"
          />
          {preset === 'day' && (
            <DatePicker
              value={day}
              allowClear={false}
              onChange={(d) => d && setDay(d)}
              aria-label={t('power.range.day')}
              data-testid="power-day"
            />
          )}
          {preset === 'custom' && (
            <DatePicker.RangePicker
              value={custom}
              onChange={(dates) => setCustom(dates?.[0] && dates[1] ? [dates[0], dates[1]] : null)}
              placeholder={[t('field.from'), t('field.to')]}
              data-testid="power-custom"
            />
          )}
          <Segmented<EnergyBucketName>
            value={bucket}
            onChange={setBucket}
            options={energyBuckets.map((b) => ({ value: b, label: t(`power.bucket.${b}`) }))}
            data-testid="power-bucket"
          />
          <Select<number>
            value={fboxId ?? 0}
            onChange={(id) => setFboxId(id === 0 ? undefined : id)}
            style={{ width: 200 }}
            aria-label={t('power.scope.label')}
            data-testid="power-scope"
            options={[
              { value: 0, label: t('power.scope.mine') },
              ...(fboxes.data ?? []).map((f) => ({ value: f.id, label: f.name })),
            ]}
          />
          <Dropdown
            disabled={!data}
            menu={{
              items: [
                { key: 'csv', label: t('task.export.csv') },
                { key: 'xlsx', label: t('task.export.xlsx') },
              ],
              onClick: ({ key }) => exportAs(key as 'csv' | 'xlsx'),
            }}
          >
            <Button icon={<DownloadOutlined />} data-testid="power-export" disabled={!data}>
              {t('power.export')}
            </Button>
          </Dropdown>
        </Space>
        {range === null && (
          <Alert style={{ marginTop: 12 }} type="info" showIcon title={t('power.range.pick')} />
        )}
        {tooLong && (
          <Alert
            style={{ marginTop: 12 }}
            type="warning"
            showIcon
            data-testid="power-too-long"
            title={t('power.range.tooLong', { max: maxDays, bucket: t(`power.bucket.${bucket}`) })}
          />
        )}
        {stat.isError && !tooLong && (
          <Alert
            style={{ marginTop: 12 }}
            type="error"
            showIcon
            title={t('power.loadFailed')}
            action={<Button onClick={() => stat.refetch()}>{t('common.action.retry')}</Button>}
          />
        )}
      </Card>

      <Row gutter={[16, 16]}>
        {(
          [
            ['energy', formatEnergy(data?.total_kwh ?? -999)],
            ['cost', money(data?.total_cost)],
            ['peak', kw(data?.peak_kw)],
            ['efficiency', efficiency(data?.j_per_th)],
            ['resets', data ? String(data.resets) : '-'],
          ] as const
        ).map(([key, value]) => (
          <Col key={key} xs={12} md={8} xl={4}>
            <Card size="small" loading={stat.isLoading && range !== null && !tooLong}>
              <Statistic title={t(`power.kpi.${key}`)} value={value} data-testid={`power-kpi-${key}`} />
            </Card>
          </Col>
        ))}
        <Col xs={12} md={8} xl={4}>
          <Card size="small">
            <Statistic
              title={t('power.kpi.price')}
              value={data ? money(data.price) : '-'}
              data-testid="power-kpi-price"
            />
          </Card>
        </Col>
      </Row>

      <Card title={t('power.chart.energy')}>
        {data && data.resets > 0 && (
          <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={t('power.chart.resetNote')} />
        )}
        <EnergyBarChart
          data={bars}
          formatEnergy={(v) => formatEnergy(v)}
          formatCost={(v) => v.toFixed(2)}
          loading={stat.isFetching && !data}
        />
      </Card>

      <Card title={t('power.chart.load')}>
        <Typography.Paragraph type="secondary">{t('power.chart.loadHint')}</Typography.Paragraph>
        <TimeSeriesChart
          series={profile}
          format={(v) => formatReading(v, 'kW')}
          loading={stat.isFetching && !data}
          testId="power-load-chart"
        />
      </Card>

      <Card title={t('power.table.title')}>
        <Table<StatRow>
          data-testid="power-table"
          rowKey={(r) => `${r.fbox_id}-${r.bucket_ts}`}
          columns={columns}
          dataSource={data?.rows ?? []}
          loading={stat.isFetching}
          size="small"
          pagination={{ defaultPageSize: 50, showSizeChanger: true, hideOnSinglePage: true }}
          locale={{ emptyText: t('power.table.empty') }}
          scroll={{ x: 'max-content' }}
        />
      </Card>

      <PriceHistory />
    </Space>
  );
};

const formatEnergyCell = (kwh: number | null) => formatEnergy(kwh ?? -999);

/** The mine's prices with their valid-from dates; managers add and delete them. */
const PriceHistory = () => {
  const { t } = useTranslation();
  const zone = useStore(timeZoneStore);
  const can = useCan();
  const prices = usePrices();
  const add = useAddPrice();
  const remove = useDeletePrice();
  const [form] = Form.useForm<{ valid_from: Dayjs; price: number }>();
  const canAdd = can('electricityPriceAdd');
  const items = prices.data?.items ?? [];
  const columns: ColumnsType<ElectricityPriceItem> = [
    {
      title: t('power.price.validFrom'),
      dataIndex: 'valid_from',
      render: (ms: number) => (ms === 0 ? t('power.price.always') : formatTime(ms, zone).slice(0, 16)),
    },
    { title: t('power.price.price'), dataIndex: 'price' },
    { title: t('power.price.setBy'), dataIndex: 'created_by', render: (v: string | null) => v ?? '-' },
    ...(can('electricityPriceDelete')
      ? [
          {
            key: 'actions',
            render: (_: unknown, p: ElectricityPriceItem) =>
              items.length > 1 && (
                <DeleteButton
                  question={t('power.price.deleteConfirm')}
                  testId={`power-price-delete-${p.valid_from}`}
                  onConfirm={() => remove.mutateAsync(p.valid_from).catch(() => undefined)}
                />
              ),
          },
        ]
      : []),
  ];
  const submit = async () => {
    const values = await form.validateFields();
    // The picker shows the user's zone: its wall time is read in that zone.
    const wall = values.valid_from;
    const offset = zone === null ? -wall.toDate().getTimezoneOffset() : Number(zone.replace('UTC', '')) * 60;
    const validFrom =
      Date.UTC(wall.year(), wall.month(), wall.date(), wall.hour(), wall.minute()) - offset * 60_000;
    try {
      await add.mutateAsync({ valid_from: validFrom, price: values.price });
      form.resetFields();
    } catch (error) {
      showServerErrors(form, error);
    }
  };
  return (
    <Card title={t('power.price.title')} data-testid="power-prices">
      <Typography.Paragraph type="secondary">{t('power.price.intro')}</Typography.Paragraph>
      {prices.isError && (
        <Alert
          type="error"
          showIcon
          title={t('power.loadFailed')}
          action={<Button onClick={() => prices.refetch()}>{t('common.action.retry')}</Button>}
        />
      )}
      {canAdd && (
        <Form form={form} layout="inline" style={{ marginBottom: 12 }} data-testid="power-price-form">
          <Form.Item
            name="valid_from"
            label={t('power.price.validFrom')}
            rules={[{ required: true, message: t('power.price.validFromRequired') }]}
          >
            <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" />
          </Form.Item>
          <Form.Item
            name="price"
            label={t('power.price.price')}
            rules={[
              { required: true, message: t('power.price.priceRule') },
              { type: 'number', min: 0.000001, message: t('power.price.priceRule') },
            ]}
          >
            <NumberInput style={{ width: 140 }} />
          </Form.Item>
          <Button type="primary" onClick={submit} loading={add.isPending} data-testid="power-price-add">
            {t('power.price.add')}
          </Button>
        </Form>
      )}
      <Table<ElectricityPriceItem>
        rowKey="valid_from"
        columns={columns}
        dataSource={items}
        loading={prices.isLoading}
        pagination={false}
        size="small"
      />
    </Card>
  );
};
