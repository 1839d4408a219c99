import type { OplogEntry } from '@fbox/contracts';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import type { TFunction } from 'i18next';
import type { ServerColumn } from '../../../components/ServerTable';
import { formatTime } from '../../../lib/time';
import { actionLabel } from '../actions';
import styles from './oplog.module.css';
import { ParamsCell } from './ParamsCell';

/** Columns of the operation log: newest first, no sorting (the log has one order). */
export const oplogColumns = (t: TFunction): ServerColumn<OplogEntry>[] => [
  { key: 'at', title: t('oplog.column.time'), hideable: false, render: (_, e) => formatTime(e.at) },
  { key: 'username', title: t('oplog.column.user'), dataIndex: 'username' },
  { key: 'ip', title: t('oplog.column.ip'), render: (_, e) => e.ip ?? '-' },
  {
    key: 'area_name',
    title: t('oplog.column.mine'),
    render: (_, e) => e.area_name ?? (e.area_id === null ? '-' : `#${e.area_id}`),
  },
  {
    key: 'action',
    title: t('oplog.column.action'),
    hideable: false,
    render: (_, e) => <span data-testid="oplog-action">{actionLabel(t, e.action)}</span>,
  },
  { key: 'target', title: t('oplog.column.target'), render: (_, e) => e.target || '-' },
  { key: 'params', title: t('oplog.column.params'), render: (_, e) => <ParamsCell params={e.params} /> },
  {
    key: 'outcome',
    title: t('oplog.column.outcome'),
    hideable: false,
    render: (_, e) => (
      <div className={styles.outcome}>
        <span>
          <Tag color={e.outcome === 'success' ? 'success' : 'error'} data-testid="oplog-outcome">
            {t(e.outcome === 'success' ? 'oplog.outcome.success' : 'oplog.outcome.failed')}
          </Tag>
        </span>
        <Typography.Text type="secondary">{e.message}</Typography.Text>
      </div>
    ),
  },
];
