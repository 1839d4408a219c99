import { DownloadOutlined } from '@ant-design/icons';
import {
  formatHashrate,
  type HashrateBucket,
  type HashrateSplit,
  type HashrateStat,
  type HashrateWorstMiner,
  timeZoneOffsetMinutes,
} from '@fbox/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Col from 'antd/es/col';
import DatePicker from 'antd/es/date-picker';
import Dropdown from 'antd/es/dropdown';
import Empty from 'antd/es/empty';
import Row from 'antd/es/row';
import Segmented from 'antd/es/segmented';
import Space from 'antd/es/space';
import Spin from 'antd/es/spin';
import Statistic from 'antd/es/statistic';
import Table from 'antd/es/table';
import Typography from 'antd/es/typography';
import type { Dayjs } from 'dayjs';
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { download } from '../../lib/api';
import { areaScope } from '../../lib/area-scope';
import { useStore } from '../../lib/store';
import { formatTime, timeZoneStore } from '../../lib/time';
import { minerDetailPath } from '../device';
import { HashrateChart } from './HashrateChart';
import { type HashrateQuery, useHashrateOverview, useWorstMiners } from './hashrate-api';

const hour = 3_600_000;
const day = 24 * hour;
type Preset = 'today' | 'day' | 'week' | 'month' | 'custom';

const percent = (v: number | null | undefined) =>
  v === null || v === undefined ? '-' : `${(v * 100).toFixed(1)}%`;

/** A series' name: miners in no group, a miner without a model, a deleted FBOX. */
const nameOf = (t: TFunction, split: HashrateSplit, key: string, name: string) => {
  if (split === 'group' && key === '0') return t('hashrateOverview.noGroup');
  if (split === 'model' && key === '') return t('hashrateOverview.unknownModel');
  return name || `#${key}`;
};

/** The range of a preset in the user's zone: local days, or the last 24 hours. */
export const presetRange = (preset: Exclude<Preset, 'custom'>, now: number, offsetMs: number) => {
  const today = Math.floor((now + offsetMs) / day) * day - offsetMs;
  if (preset === 'today') return { from: today, to: today + day, bucket: 'hour' as const };
  if (preset === 'day') {
    const to = Math.ceil(now / hour) * hour;
    return { from: to - day, to, bucket: 'hour' as const };
  }
  const days = preset === 'week' ? 7 : 30;
  return { from: today - (days - 1) * day, to: today + day, bucket: 'day' as const };
};

/** Hashrate Overview (catalogue screen): hashrate against theoretical, online rate, uptimes, worst miners. */
export const HashrateOverviewPage = () => {
  const { t } = useTranslation();
  const zone = useStore(timeZoneStore);
  const offsetMs =
    zone === null ? -new Date().getTimezoneOffset() * 60_000 : timeZoneOffsetMinutes(zone) * 60_000;
  const [preset, setPreset] = useState<Preset>('week');
  const [custom, setCustom] = useState<[Dayjs, Dayjs] | null>(null);
  const [bucket, setBucket] = useState<HashrateBucket>('day');
  const [split, setSplit] = useState<HashrateSplit>('fbox');
  const [now] = useState(() => Date.now());

  const range = useMemo(() => {
    if (preset !== 'custom' || !custom)
      return presetRange(preset === 'custom' ? 'week' : preset, now, offsetMs);
    const [a, b] = custom;
    const from = Date.UTC(a.year(), a.month(), a.date()) - offsetMs;
    const to = Date.UTC(b.year(), b.month(), b.date()) + day - offsetMs;
    return { from, to, bucket };
  }, [preset, custom, now, offsetMs, bucket]);
  const query: HashrateQuery = {
    from: range.from,
    to: range.to,
    bucket: preset === 'custom' ? bucket : range.bucket,
    split,
  };
  const overview = useHashrateOverview(query);
  const worst = useWorstMiners(range.from, range.to);
  const data = overview.data;

  const seriesName = (key: string, name: string) => nameOf(t, split, key, name);

  const chart = useMemo(() => {
    if (!data) return null;
    const buckets = data.totals.map((r) => r.bucket_ts);
    const at = new Map(data.rows.map((r) => [`${r.key}|${r.bucket_ts}`, r.hashrate]));
    return {
      series: data.series.map((s) => ({
        name: nameOf(t, split, s.key, s.name),
        points: buckets.map((b): [number, number | null] => [b, at.get(`${s.key}|${b}`) ?? null]),
      })),
      theoretical: {
        name: t('hashrateOverview.theoretical'),
        points: data.totals.map((r): [number, number | null] => [r.bucket_ts, r.theoretical]),
      },
    };
  }, [data, t, split]);

  const exportAs = (format: 'csv' | 'xlsx') =>
    void download('hashrateOverviewExport', { ...areaScope(), ...query, format }, `hashrate.${format}`).catch(
      () => undefined,
    );

  const kpi = data?.kpi;
  const cards: { key: string; title: string; value: string; extra?: string; definition: string }[] = [
    {
      key: 'hashrate',
      title: t('hashrateOverview.kpi.hashrate'),
      value: formatHashrate(kpi?.hashrate ?? null),
      extra: t('hashrateOverview.kpi.vsTheoretical', {
        theoretical: formatHashrate(kpi?.theoretical ?? null),
        ratio: percent(kpi?.ratio),
      }),
      definition: t('hashrateOverview.def.hashrate'),
    },
    {
      key: 'online',
      title: t('hashrateOverview.kpi.online'),
      value: percent(kpi?.online_rate),
      definition: t('hashrateOverview.def.online'),
    },
    {
      key: 'reachable',
      title: t('hashrateOverview.kpi.reachable'),
      value: percent(kpi?.reachable_uptime),
      definition: t('hashrateOverview.def.reachable'),
    },
    {
      key: 'hashing',
      title: t('hashrateOverview.kpi.hashing'),
      value: percent(kpi?.hashing_uptime),
      definition: t('hashrateOverview.def.hashing'),
    },
  ];
  const statColumns = [
    {
      title: t('hashrateOverview.col.hashrate'),
      dataIndex: 'hashrate',
      render: (v: number | null) => formatHashrate(v),
    },
    {
      title: t('hashrateOverview.col.theoretical'),
      dataIndex: 'theoretical',
      render: (v: number | null) => formatHashrate(v),
    },
    { title: t('hashrateOverview.col.ratio'), dataIndex: 'ratio', render: percent },
  ];
  const uptimeColumns = [
    { title: t('hashrateOverview.col.reachable'), dataIndex: 'reachable_uptime', render: percent },
    { title: t('hashrateOverview.col.hashing'), dataIndex: 'hashing_uptime', render: percent },
  ];
  const empty = data !== undefined && data.totals.length === 0;

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="hashrate-overview">
      <Card>
        <Space wrap>
          <Segmented<Preset>
            value={preset}
            onChange={setPreset}
            data-testid="hashrate-preset"
            options={(['today', 'day', 'week', 'month', 'custom'] as const).map((p) => ({
              value: p,
              label: t(`hashrateOverview.preset.${p}`),
            }))}
          />
          {preset === 'custom' && (
            <>
              <DatePicker.RangePicker
                value={custom}
                onChange={(v) => setCustom(v?.[0] && v[1] ? [v[0], v[1]] : null)}
                aria-label={t('hashrateOverview.range')}
                data-testid="hashrate-custom-range"
              />
              <Segmented<HashrateBucket>
                value={bucket}
                onChange={setBucket}
                aria-label={t('hashrateOverview.resolution')}
                options={[
                  { value: 'hour', label: t('hashrateOverview.bucket.hour') },
                  { value: 'day', label: t('hashrateOverview.bucket.day') },
                ]}
              />
            </>
          )}
          <Segmented<HashrateSplit>
            value={split}
            onChange={setSplit}
            data-testid="hashrate-split"
            options={(['fbox', 'model', 'group'] as const).map((s) => ({
              value: s,
              label: t(`hashrateOverview.split.${s}`),
            }))}
          />
          <Dropdown
            menu={{
              items: [
                { key: 'csv', label: t('task.export.csv') },
                { key: 'xlsx', label: t('task.export.xlsx') },
              ],
              onClick: ({ key }) => exportAs(key as 'csv' | 'xlsx'),
            }}
          >
            <Button icon={<DownloadOutlined />} data-testid="hashrate-export">
              {t('hashrateOverview.export')}
            </Button>
          </Dropdown>
          {data && (
            <Typography.Text type="secondary" data-testid="hashrate-range">
              {formatTime(data.from, zone)} – {formatTime(data.to, zone)} ({data.time_zone})
            </Typography.Text>
          )}
        </Space>
      </Card>
      {overview.isError && (
        <Alert
          type="error"
          showIcon
          title={t('hashrateOverview.error')}
          description={overview.error instanceof Error ? overview.error.message : undefined}
          action={<Button onClick={() => void overview.refetch()}>{t('hashrateOverview.retry')}</Button>}
          data-testid="hashrate-error"
        />
      )}
      <Row gutter={[16, 16]}>
        {cards.map((c) => (
          <Col key={c.key} xs={24} sm={12} xl={6}>
            <Card data-testid={`hashrate-kpi-${c.key}`} loading={overview.isPending}>
              <Statistic title={c.title} value={c.value} />
              {c.extra && <Typography.Text>{c.extra}</Typography.Text>}
              <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0, fontSize: 12 }}>
                {c.definition}
              </Typography.Paragraph>
            </Card>
          </Col>
        ))}
      </Row>
      <Card title={t('hashrateOverview.chartTitle')}>
        <Spin spinning={overview.isFetching}>
          {empty ? (
            <Empty description={t('hashrateOverview.empty')} data-testid="hashrate-empty" />
          ) : chart ? (
            <HashrateChart
              series={chart.series}
              theoretical={chart.theoretical}
              stacked={split !== 'group'}
            />
          ) : (
            <div style={{ height: 320 }} />
          )}
          {split === 'group' && (
            <Typography.Text type="secondary">{t('hashrateOverview.groupNote')}</Typography.Text>
          )}
        </Spin>
      </Card>
      <Card title={t('hashrateOverview.seriesTitle')}>
        <Table<{ key: string; name: string } & HashrateStat>
          rowKey="key"
          size="small"
          pagination={false}
          loading={overview.isPending}
          data-testid="hashrate-series-table"
          dataSource={data?.series ?? []}
          locale={{ emptyText: <Empty description={t('hashrateOverview.empty')} /> }}
          columns={[
            {
              title: t(`hashrateOverview.split.${split}`),
              dataIndex: 'name',
              render: (_, s) => seriesName(s.key, s.name),
            },
            ...statColumns,
            { title: t('hashrateOverview.col.online'), dataIndex: 'online_rate', render: percent },
            ...uptimeColumns,
          ]}
        />
      </Card>
      <Card
        title={t('hashrateOverview.worstTitle')}
        extra={<Typography.Text type="secondary">{t('hashrateOverview.worstHint')}</Typography.Text>}
      >
        {worst.isError && <Alert type="error" showIcon title={t('hashrateOverview.error')} />}
        <Table<HashrateWorstMiner>
          rowKey="miner_id"
          size="small"
          pagination={false}
          loading={worst.isPending}
          data-testid="hashrate-worst-table"
          dataSource={worst.data?.items ?? []}
          locale={{ emptyText: <Empty description={t('hashrateOverview.empty')} /> }}
          columns={[
            {
              title: t('field.sn'),
              dataIndex: 'sn',
              render: (_, m) => <Link to={minerDetailPath(m.miner_id)}>{m.sn}</Link>,
            },
            { title: t('field.worker'), dataIndex: 'worker' },
            { title: t('field.fbox_name'), dataIndex: 'fbox_name' },
            { title: t('field.model'), dataIndex: 'model' },
            ...statColumns,
            {
              title: t('hashrateOverview.col.lost'),
              dataIndex: 'lost',
              render: (v: number) => formatHashrate(v),
            },
            ...uptimeColumns,
          ]}
        />
      </Card>
    </Space>
  );
};
