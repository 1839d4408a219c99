import type { MinerLogExport } from '@fbox/contracts';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import type { TFunction } from 'i18next';
import { formatTime } from '../../../lib/time';
import { filterLabel, formatBytes, scopeLabel } from '../labels';
import { ExportRowActions } from './ExportRowActions';
import { ExportStatus } from './ExportStatus';
import styles from './logs.module.css';

/** A cell of two lines, the second in grey. */
const TwoLines = ({ first, second, testId }: { first: string; second: string; testId?: string }) => (
  <span className={styles.twoLines} data-testid={testId}>
    <span>{first}</span>
    <Typography.Text type="secondary">{second}</Typography.Text>
  </span>
);

/** An export's time window in the user's time zone: start above end. */
export const ExportWindow = ({ item }: { item: Pick<MinerLogExport, 'from' | 'to'> }) => (
  <TwoLines first={formatTime(item.from)} second={formatTime(item.to)} testId="miner-logs-window" />
);

/** What an export picked: how (a tag), and which (the FBOXes, tanks, groups, SNs or the filter). */
export const ExportPicked = ({
  t,
  item,
  fboxNames,
}: {
  t: TFunction;
  item: MinerLogExport;
  fboxNames: ReadonlyMap<number, string>;
}) => {
  const label = item.scope === 'filter' ? filterLabel(t, item.scope_label, fboxNames) : item.scope_label;
  return (
    <span className={styles.picked}>
      <Tag>{scopeLabel(t, item.scope)}</Tag>
      <Typography.Text className={styles.pickedLabel} ellipsis={{ tooltip: label }}>
        {label}
      </Typography.Text>
    </span>
  );
};

/** Columns of the export list (newest first, the server's one order). */
export const exportColumns = (
  t: TFunction,
  {
    fboxNames,
    onDetails,
  }: { fboxNames: ReadonlyMap<number, string>; onDetails: (item: MinerLogExport) => void },
): ColumnsType<MinerLogExport> => [
  {
    key: 'created_at',
    title: t('minerLogs.column.createdAt'),
    render: (_, e) => (
      <TwoLines
        first={formatTime(e.created_at)}
        second={t('minerLogs.createdBy', { user: e.created_by ?? t('minerLogs.userGone') })}
      />
    ),
  },
  { key: 'window', title: t('minerLogs.column.window'), render: (_, e) => <ExportWindow item={e} /> },
  {
    key: 'picked',
    title: t('minerLogs.column.picked'),
    render: (_, e) => <ExportPicked t={t} item={e} fboxNames={fboxNames} />,
  },
  { key: 'status', title: t('minerLogs.column.status'), render: (_, e) => <ExportStatus item={e} /> },
  { key: 'total', title: t('minerLogs.column.total'), align: 'right', dataIndex: 'total' },
  {
    key: 'done',
    title: t('minerLogs.column.done'),
    align: 'right',
    render: (_, e) => <Typography.Text type={e.done > 0 ? 'success' : undefined}>{e.done}</Typography.Text>,
  },
  {
    key: 'failed',
    title: t('minerLogs.column.failed'),
    align: 'right',
    render: (_, e) => (
      <Typography.Text type={e.failed > 0 ? 'danger' : undefined}>{e.failed}</Typography.Text>
    ),
  },
  {
    key: 'bytes',
    title: t('minerLogs.column.size'),
    align: 'right',
    className: styles.counts,
    render: (_, e) => formatBytes(e.bytes),
  },
  {
    key: 'updated_at',
    title: t('minerLogs.column.updatedAt'),
    render: (_, e) => (
      <TwoLines
        first={formatTime(e.updated_at)}
        second={t('minerLogs.expires', { time: formatTime(e.expires_at) })}
      />
    ),
  },
  {
    key: 'actions',
    title: t('common.table.actions'),
    fixed: 'right',
    render: (_, e) => <ExportRowActions item={e} onDetails={() => onDetails(e)} />,
  },
];
