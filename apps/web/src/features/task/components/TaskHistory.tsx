import { DownloadOutlined } from '@ant-design/icons';
import type { TaskRun } from '@fbox/contracts';
import Button from 'antd/es/button';
import DatePicker from 'antd/es/date-picker';
import Select from 'antd/es/select';
import Typography from 'antd/es/typography';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ServerColumn, ServerTable } from '../../../components/ServerTable';
import { tableQueryProps } from '../../../components/table-query';
import { useStore } from '../../../lib/store';
import { formatTime, timeZoneStore } from '../../../lib/time';
import { fromPickerValue } from '../../../lib/zoned-time';
import {
  exportHistory,
  type HistoryFilter,
  type TaskFamily,
  useTaskChoices,
  useTaskHistory,
} from '../api-tasks';
import { useLocalListQuery } from '../use-local-list';
import { TaskStatusTag } from './TaskStatusTag';
import { DATE_TIME_FORMAT } from './ZonedDateTime';

/**
 * The runs of a task screen (one batch each, DESIGN §8) with their outcome, filtered by task and time
 * (in the user's zone), exported as CSV or XLSX, and refreshed every 10 s.
 */
export const TaskHistory = ({
  family,
  testId,
  onDetail,
}: {
  family: TaskFamily;
  testId: string;
  onDetail: (run: TaskRun) => void;
}) => {
  const { t } = useTranslation();
  const zone = useStore(timeZoneStore);
  const list = useLocalListQuery();
  const [taskId, setTaskId] = useState<number | undefined>();
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const filter: HistoryFilter = {
    task_id: taskId,
    from: range ? fromPickerValue(range[0], zone) : undefined,
    to: range ? fromPickerValue(range[1], zone) : undefined,
  };
  const runs = useTaskHistory(family, filter, { page: list.query.page, limit: list.query.limit });
  const tasks = useTaskChoices(family);

  const changeFilter = (apply: () => void) => {
    apply();
    list.update({ page: 1 });
  };

  const columns: ServerColumn<TaskRun>[] = [
    {
      key: 'task_name',
      title: t('task.history.task'),
      hideable: false,
      render: (_, run) => (
        <>
          {run.task_name} {run.task_status === 'deleted' && <TaskStatusTag status={run.task_status} />}
        </>
      ),
    },
    { key: 'started_at', title: t('task.history.started'), render: (_, run) => formatTime(run.started_at) },
    {
      key: 'finished_at',
      title: t('task.history.finished'),
      render: (_, run) =>
        run.finished_at === null ? (
          <Typography.Text type="warning">{t('task.history.inProgress')}</Typography.Text>
        ) : (
          formatTime(run.finished_at)
        ),
    },
    { key: 'miner_count', title: t('task.queue.miners'), dataIndex: 'miner_count' },
    {
      key: 'acknowledged_count',
      title: t('task.history.acknowledged'),
      render: (_, run) => <Typography.Text type="success">{run.acknowledged_count}</Typography.Text>,
    },
    {
      key: 'failed_count',
      title: t('task.history.failed'),
      render: (_, run) =>
        run.failed_count > 0 ? <Typography.Text type="danger">{run.failed_count}</Typography.Text> : 0,
    },
    { key: 'pending_count', title: t('task.history.pending'), dataIndex: 'pending_count' },
    {
      key: 'operations',
      title: t('common.table.actions'),
      hideable: false,
      fixed: 'right',
      render: (_, run) => (
        <Button type="link" size="small" onClick={() => onDetail(run)} data-testid="run-detail">
          {t('task.action.detail')}
        </Button>
      ),
    },
  ];

  return (
    <ServerTable<TaskRun>
      tableId={testId}
      testId={testId}
      columns={columns}
      list={list}
      {...tableQueryProps(runs)}
      toolbar={
        <>
          <Select<number>
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('task.history.allTasks')}
            aria-label={t('task.history.task')}
            style={{ width: 220 }}
            loading={tasks.isPending}
            value={taskId}
            onChange={(value) => changeFilter(() => setTaskId(value))}
            options={(tasks.data ?? []).map((task) => ({ value: task.id, label: task.name }))}
            data-testid="history-task-filter"
          />
          <DatePicker.RangePicker
            showTime={{ format: 'HH:mm' }}
            format={DATE_TIME_FORMAT}
            value={range}
            onChange={(value) =>
              changeFilter(() => setRange(value?.[0] && value[1] ? [value[0], value[1]] : null))
            }
            aria-label={t('task.history.range')}
          />
          <Button
            icon={<DownloadOutlined />}
            onClick={() => void exportHistory(family, filter, 'csv')}
            data-testid="history-export-csv"
          >
            {t('task.export.csv')}
          </Button>
          <Button
            icon={<DownloadOutlined />}
            onClick={() => void exportHistory(family, filter, 'xlsx')}
            data-testid="history-export-xlsx"
          >
            {t('task.export.xlsx')}
          </Button>
        </>
      }
    />
  );
};
