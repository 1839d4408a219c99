import Tabs from 'antd/es/tabs';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatTime } from '../../../lib/time';
import type { TaskFamily } from '../api-tasks';
import { TaskHistory } from './TaskHistory';
import { type DetailTarget, TaskItems } from './TaskItems';

const views = ['queue', 'history', 'detail'] as const;
type View = (typeof views)[number];

/**
 * Queue, History and Detail of one kind of task (spec §2). The open view is in the URL (`view`);
 * "Detail" on a queue row or a run opens the detail of that task or run.
 */
export const TaskBoard = ({
  family,
  testId,
  queue,
}: {
  family: TaskFamily;
  testId: string;
  queue: (showTask: (task: { id: number; name: string }) => void) => ReactNode;
}) => {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const wanted = search.get('view') as View | null;
  const view: View = wanted && views.includes(wanted) ? wanted : 'queue';
  const [target, setTarget] = useState<DetailTarget | null>(null);

  const open = (next: View) =>
    setSearch((current) => {
      const params = new URLSearchParams(current);
      if (next === 'queue') params.delete('view');
      else params.set('view', next);
      return params;
    });
  const showDetail = (next: DetailTarget) => {
    setTarget(next);
    open('detail');
  };

  return (
    <Tabs
      activeKey={view}
      onChange={(key) => open(key as View)}
      destroyOnHidden
      data-testid={testId}
      items={[
        {
          key: 'queue',
          label: <span data-testid="view-queue">{t('task.view.queue')}</span>,
          children: queue((task) =>
            showDetail({ scope: { task_id: task.id }, title: t('task.detail.ofTask', { task: task.name }) }),
          ),
        },
        {
          key: 'history',
          label: <span data-testid="view-history">{t('task.view.history')}</span>,
          children: (
            <TaskHistory
              family={family}
              testId={`${testId}-history`}
              onDetail={(run) =>
                showDetail({
                  scope: { run_id: run.id },
                  title: t('task.detail.ofRun', { task: run.task_name, time: formatTime(run.started_at) }),
                })
              }
            />
          ),
        },
        {
          key: 'detail',
          label: <span data-testid="view-detail">{t('task.view.detail')}</span>,
          children: (
            <TaskItems
              key={JSON.stringify(target?.scope ?? null)}
              family={family}
              target={target}
              testId={`${testId}-detail`}
            />
          ),
        },
      ]}
    />
  );
};
