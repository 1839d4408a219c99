import { DownloadOutlined } from '@ant-design/icons';
import {
  AlertAckBodySchema,
  AlertHistoryQuerySchema,
  type AlertItem,
  AlertListQuerySchema,
  AlertSilenceBodySchema,
  alertLevels,
  alertMetricNames,
  alertMetrics,
  alertNoteMax,
  alertTargets,
} from '@fbox/contracts';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Dropdown from 'antd/es/dropdown';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import Typography from 'antd/es/typography';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FilterSelects } from '../../components/FilterSelects';
import { FormModal } from '../../components/FormModal';
import { KeywordSearch } from '../../components/KeywordSearch';
import { type ServerColumn, ServerTable } from '../../components/ServerTable';
import { tableQueryProps } from '../../components/table-query';
import { useCan } from '../../lib/access';
import { download } from '../../lib/api';
import { areaScope } from '../../lib/area-scope';
import { schemaRule } from '../../lib/form-rules';
import { toRequestParams } from '../../lib/list-query';
import { showServerErrors } from '../../lib/server-errors';
import { formatTime } from '../../lib/time';
import { useListQuery } from '../../lib/use-list-query';
import { formatUptime, NO_DATA } from '../../lib/values';
import { fboxDetailPath, minerDetailPath, tankDetailPath, useFaultText, useFboxOptions } from '../device';
import { AlertNotifications } from '../notify';
import { type AlertListKind, useAckAlert, useAlertList, useSilenceAlert } from './api';
import { levelColors } from './levels';
import { unitOf } from './metric-units';

const filterKeys = ['keyword', 'level', 'target', 'metric', 'fbox_id'] as const;

/** A reading with its unit; a state metric (offline, fault) has none to show. */
const readingOf = (alert: AlertItem, value: number | null): string =>
  value === null ? NO_DATA : `${Math.round(value * 10) / 10} ${unitOf(alert.metric)}`;

const devicePath = (alert: AlertItem): string =>
  alert.target === 'miner'
    ? minerDetailPath(alert.device_id)
    : alert.target === 'tank'
      ? tankDetailPath(alert.device_id)
      : fboxDetailPath({ id: alert.device_id, kind: '' });

interface RowActions {
  onAck: (alert: AlertItem) => void;
  /** Absent when the user may not silence. */
  onSilence?: (alert: AlertItem) => void;
}

const alertColumns = (
  t: TFunction,
  kind: AlertListKind,
  faultText: (codes: string) => string,
  { onAck, onSilence }: RowActions,
): ServerColumn<AlertItem>[] => [
  {
    key: 'level',
    title: t('alarm.column.level'),
    sortField: 'level',
    hideable: false,
    render: (_, a) => <Tag color={levelColors[a.level]}>{t(`alertLevel.${a.level}` as 'alertLevel.1')}</Tag>,
  },
  {
    key: 'metric',
    title: t('alarm.column.metric'),
    sortField: 'metric',
    render: (_, a) => t(`alertMetric.${a.metric}`),
  },
  {
    key: 'device_name',
    title: t('alarm.column.device'),
    sortField: 'device_name',
    render: (_, a) => (
      <Link to={devicePath(a)}>
        {t(`alertTarget.${a.target}`)} {a.device_name}
      </Link>
    ),
  },
  {
    key: 'fbox_name',
    title: t('field.fbox_name'),
    sortField: 'fbox_name',
    render: (_, a) => <Link to={fboxDetailPath({ id: a.fbox_id, kind: '' })}>{a.fbox_name}</Link>,
  },
  {
    key: 'value',
    title: t('alarm.column.value'),
    sortField: 'value',
    render: (_, a) => (a.detail ? faultText(a.detail) : readingOf(a, a.value)),
  },
  {
    key: 'peak_value',
    title: t('alarm.column.peak'),
    sortField: 'peak_value',
    render: (_, a) => readingOf(a, a.peak_value),
  },
  {
    key: 'started_at',
    title: t('alarm.column.since'),
    sortField: 'started_at',
    render: (_, a) => formatTime(a.started_at),
  },
  ...(kind === 'history'
    ? [
        {
          key: 'ended_at',
          title: t('alarm.column.ended'),
          sortField: 'ended_at',
          render: (_: unknown, a: AlertItem) => (a.ended_at === null ? NO_DATA : formatTime(a.ended_at)),
        },
        {
          key: 'duration',
          title: t('alarm.column.duration'),
          render: (_: unknown, a: AlertItem) =>
            a.ended_at === null ? NO_DATA : formatUptime(t, Math.round((a.ended_at - a.started_at) / 1000)),
        },
        {
          key: 'end_reason',
          title: t('alarm.column.endReason'),
          render: (_: unknown, a: AlertItem) => (a.end_reason ? t(`alertEnd.${a.end_reason}`) : NO_DATA),
        },
      ]
    : []),
  ...(kind === 'current'
    ? [
        {
          key: 'silence',
          title: t('alarm.silence.column'),
          hideable: false,
          render: (_: unknown, a: AlertItem) =>
            a.silenced_until !== null ? (
              <Tooltip title={t('alarm.silence.until', { time: formatTime(a.silenced_until) })}>
                <Tag
                  color="default"
                  onClick={onSilence && (() => onSilence(a))}
                  style={onSilence && { cursor: 'pointer' }}
                  data-testid="alarm-silenced"
                >
                  {t('alarm.silence.untilShort', { time: formatTime(a.silenced_until).slice(5, 16) })}
                </Tag>
              </Tooltip>
            ) : onSilence ? (
              <Button size="small" onClick={() => onSilence(a)} data-testid="alarm-silence">
                {t('alarm.silence.action')}
              </Button>
            ) : (
              NO_DATA
            ),
        },
      ]
    : []),
  {
    key: 'acked',
    title: t('alarm.column.acked'),
    hideable: false,
    fixed: 'right',
    render: (_, a) =>
      a.acked_at === null ? (
        <Button size="small" onClick={() => onAck(a)} data-testid="alarm-ack">
          {t('alarm.ack.action')}
        </Button>
      ) : (
        <span title={a.ack_note ?? undefined} data-testid="alarm-acked">
          {t('alarm.ack.by', { name: a.acked_by ?? '', time: formatTime(a.acked_at) })}
        </span>
      ),
  },
];

/** Acknowledges an alert: who and when come from the session; the note is optional. */
const AckDialog = ({ alert, onClose }: { alert: AlertItem; onClose: () => void }) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ note?: string }>();
  const ack = useAckAlert();
  const onFinish = async ({ note }: { note?: string }) => {
    try {
      await ack.mutateAsync({ id: alert.id, note: note?.trim() || undefined });
      onClose();
    } catch (error) {
      showServerErrors(form, error);
    }
  };
  return (
    <FormModal
      open
      title={t('alarm.ack.title', { rule: t(`alertMetric.${alert.metric}`), device: alert.device_name })}
      okText={t('alarm.ack.action')}
      form={form}
      saving={ack.isPending}
      onClose={onClose}
    >
      <Form form={form} name="alarmAck" layout="vertical" onFinish={onFinish}>
        <Form.Item
          name="note"
          label={t('field.note')}
          rules={[schemaRule(AlertAckBodySchema.shape.note, { label: t('field.note') })]}
        >
          <Input.TextArea
            autoFocus
            autoSize={{ minRows: 2, maxRows: 5 }}
            count={{ show: true, max: alertNoteMax }}
          />
        </Form.Item>
      </Form>
    </FormModal>
  );
};

/** How long a silence may last, in minutes: the choices of the dialog. */
const silenceChoices = [30, 60, 240, 1440, 10080] as const;

/**
 * Silences the alert's rule on its device for a chosen time: it stays on the list, no notification
 * goes out for it until then. A silenced alert's dialog can lift the silence.
 */
const SilenceDialog = ({ alert, onClose }: { alert: AlertItem; onClose: () => void }) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ minutes: number; note?: string }>();
  const silence = useSilenceAlert();
  const submit = async (minutes: number, note?: string) => {
    try {
      await silence.mutateAsync({ id: alert.id, minutes, note: note?.trim() || undefined });
      onClose();
    } catch (error) {
      showServerErrors(form, error);
    }
  };
  const lift = alert.silenced_until !== null && (
    <Button key="lift" onClick={() => void submit(0)} data-testid="alarm-silence-lift">
      {t('alarm.silence.lift')}
    </Button>
  );
  return (
    <FormModal
      open
      title={t('alarm.silence.title', { rule: t(`alertMetric.${alert.metric}`), device: alert.device_name })}
      okText={t('alarm.silence.action')}
      form={form}
      saving={silence.isPending}
      onClose={onClose}
      footer={(buttons) => (
        <>
          {lift}
          {buttons}
        </>
      )}
    >
      <Typography.Paragraph type="secondary">{t('alarm.silence.explain')}</Typography.Paragraph>
      <Form
        form={form}
        name="alarmSilence"
        layout="vertical"
        initialValues={{ minutes: 60 }}
        onFinish={({ minutes, note }) => submit(minutes, note)}
      >
        <Form.Item name="minutes" label={t('field.minutes')} required>
          <Select
            options={silenceChoices.map((minutes) => ({
              value: minutes,
              label: formatUptime(t, minutes * 60),
            }))}
            data-testid="alarm-silence-minutes"
          />
        </Form.Item>
        <Form.Item
          name="note"
          label={t('field.note')}
          rules={[schemaRule(AlertSilenceBodySchema.shape.note, { label: t('field.note') })]}
        >
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} count={{ show: true, max: alertNoteMax }} />
        </Form.Item>
      </Form>
    </FormModal>
  );
};

/**
 * Realtime alerts (/alarm/currentAlarm: open ones, updating live) and alert history
 * (/alarm/historyAlarm: closed ones with their end and duration), server-paged and filtered by
 * level, kind of device, rule, FBOX and device name.
 */
const AlarmListPage = ({ kind }: { kind: AlertListKind }) => {
  const { t } = useTranslation();
  const list = useListQuery({
    filterKeys,
    schema: kind === 'current' ? AlertListQuerySchema : AlertHistoryQuerySchema,
  });
  const alerts = useAlertList(kind, list.query);
  const fboxes = useFboxOptions();
  const faultText = useFaultText();
  const can = useCan();
  const [acking, setAcking] = useState<AlertItem | null>(null);
  const [silencing, setSilencing] = useState<AlertItem | null>(null);
  const columns = alertColumns(t, kind, faultText, {
    onAck: setAcking,
    onSilence: can('alarmSilence') ? setSilencing : undefined,
  });
  const exportAs = (format: 'csv' | 'xlsx') => {
    const { page: _page, limit: _limit, ...filters } = toRequestParams(list.query);
    void download(
      'alarmHistoryExport',
      { ...areaScope(), ...filters, format },
      `alert-history.${format}`,
    ).catch(() => undefined);
  };
  return (
    <Card>
      {acking && <AckDialog alert={acking} onClose={() => setAcking(null)} />}
      {silencing && <SilenceDialog alert={silencing} onClose={() => setSilencing(null)} />}
      <ServerTable<AlertItem>
        tableId={`alarm-${kind}`}
        testId={`alarm-${kind}-table`}
        columns={columns}
        list={list}
        {...tableQueryProps(alerts)}
        expandedRow={(a) => <AlertNotifications areaId={areaScope().area_id} alertId={a.id} />}
        toolbar={
          <>
            <KeywordSearch list={list} placeholder={t('alarm.search')} testId="alarm-search" />
            <FilterSelects
              list={list}
              testIdPrefix="alarm-filter"
              popupMatchSelectWidth={false}
              filters={[
                {
                  name: 'level',
                  label: t('alarm.column.level'),
                  options: alertLevels.map((level) => ({
                    value: String(level),
                    label: t(`alertLevel.${level}` as 'alertLevel.1'),
                  })),
                  width: 120,
                },
                {
                  name: 'target',
                  label: t('alarm.filter.target'),
                  options: alertTargets.map((target) => ({
                    value: target,
                    label: t(`alertTarget.${target}`),
                  })),
                  width: 120,
                },
                {
                  name: 'metric',
                  label: t('alarm.column.metric'),
                  options: alertMetricNames
                    .filter(
                      (metric) =>
                        !list.query.filters.target ||
                        alertMetrics[metric].target === list.query.filters.target,
                    )
                    .map((metric) => ({ value: metric, label: t(`alertMetric.${metric}`) })),
                  width: 220,
                },
                {
                  name: 'fbox_id',
                  label: t('field.fbox_name'),
                  options: (fboxes.data ?? []).map((f) => ({ value: f.id, label: f.name })),
                  width: 170,
                },
              ]}
            />
            {kind === 'history' && (
              <Dropdown
                menu={{
                  items: [
                    { key: 'csv', label: t('task.export.csv') },
                    { key: 'xlsx', label: t('task.export.xlsx') },
                  ],
                  onClick: ({ key }) => exportAs(key as 'csv' | 'xlsx'),
                }}
              >
                <Button icon={<DownloadOutlined />} data-testid="alarm-export">
                  {t('alarm.export')}
                </Button>
              </Dropdown>
            )}
          </>
        }
      />
    </Card>
  );
};

export const CurrentAlarmPage = () => <AlarmListPage kind="current" />;
export const HistoryAlarmPage = () => <AlarmListPage kind="history" />;
