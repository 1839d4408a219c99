import { DownloadOutlined } from '@ant-design/icons';
import { formatHashrate, type TaskItem } from '@fbox/contracts';
import Button from 'antd/es/button';
import Empty from 'antd/es/empty';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { CommandStatusTag, type OutcomeStatus } from '../../../components/CommandStatusTag';
import { type ServerColumn, ServerTable } from '../../../components/ServerTable';
import { tableQueryProps } from '../../../components/table-query';
import { useStore } from '../../../lib/store';
import { formatTime, timeZoneStore } from '../../../lib/time';
import { showTemperature } from '../../../lib/values';
import { exportItems, type ItemsScope, type TaskFamily, useTaskItems } from '../api-tasks';
import { useLocalListQuery } from '../use-local-list';

const commandStatus: Record<TaskItem['status'], OutcomeStatus> = {
  pending: 'pending',
  acknowledged: 'acknowledged',
  failed: 'failed',
  timeout: 'timed_out',
};

/** What the detail shows, and how it is named above the table. */
export interface DetailTarget {
  scope: ItemsScope;
  title: string;
}

/**
 * The detail of a run or a task: every action on every miner with the reading that made it qualify
 * and the command's outcome; exported as CSV or XLSX; refreshed every 10 s while commands are pending.
 */
export const TaskItems = ({
  family,
  target,
  testId,
}: {
  family: TaskFamily;
  target: DetailTarget | null;
  testId: string;
}) => {
  const { t } = useTranslation();
  useStore(timeZoneStore);
  const list = useLocalListQuery();
  const items = useTaskItems(family, target?.scope ?? null, {
    page: list.query.page,
    limit: list.query.limit,
  });

  if (!target)
    return (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('task.detail.empty')} data-testid={testId} />
    );

  const actionLabels: Record<TaskItem['action'], string> = {
    restart: t('task.itemAction.restart'),
    power_off: t('task.itemAction.powerOff'),
    power_on: t('task.itemAction.powerOn'),
    mode_low: t('task.itemAction.modeLow'),
    mode_high: t('task.itemAction.modeHigh'),
  };
  const reading = (value: number | null) =>
    family.family === 'reboot' ? formatHashrate(value) : showTemperature(value);

  const columns: ServerColumn<TaskItem>[] = [
    { key: 'worker', title: t('field.worker'), dataIndex: 'worker', hideable: false, fixed: 'left' },
    { key: 'sn', title: t('field.sn'), dataIndex: 'sn' },
    { key: 'ip', title: t('field.ip'), dataIndex: 'ip' },
    { key: 'fbox_name', title: t('field.fbox_name'), dataIndex: 'fbox_name' },
    { key: 'action', title: t('task.detail.action'), render: (_, item) => actionLabels[item.action] },
    { key: 'reading', title: t('task.detail.reading'), render: (_, item) => reading(item.reading) },
    {
      key: 'status',
      title: t('task.detail.status'),
      render: (_, item) => (
        <>
          <CommandStatusTag status={commandStatus[item.status]} />
          {item.error && <Typography.Text type="danger">{item.error}</Typography.Text>}
        </>
      ),
    },
    { key: 'created_at', title: t('task.detail.actedAt'), render: (_, item) => formatTime(item.created_at) },
    {
      key: 'finished_at',
      title: t('task.detail.answeredAt'),
      render: (_, item) => (item.finished_at === null ? '-' : formatTime(item.finished_at)),
    },
  ];

  return (
    <>
      <Typography.Title level={5} data-testid={`${testId}-title`}>
        {target.title}
      </Typography.Title>
      <ServerTable<TaskItem>
        tableId={testId}
        testId={testId}
        columns={columns}
        list={list}
        {...tableQueryProps(items)}
        toolbar={
          <>
            <Button
              icon={<DownloadOutlined />}
              onClick={() => void exportItems(family, target.scope, 'csv')}
              data-testid="detail-export-csv"
            >
              {t('task.export.csv')}
            </Button>
            <Button
              icon={<DownloadOutlined />}
              onClick={() => void exportItems(family, target.scope, 'xlsx')}
              data-testid="detail-export-xlsx"
            >
              {t('task.export.xlsx')}
            </Button>
          </>
        }
      />
    </>
  );
};
