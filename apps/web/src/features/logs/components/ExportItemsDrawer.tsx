import { DownloadOutlined } from '@ant-design/icons';
import {
  type MinerLogExport,
  type MinerLogItem,
  type MinerLogItemState,
  minerLogItemStates,
} from '@fbox/contracts';
import { useQueryClient } from '@tanstack/react-query';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Drawer from 'antd/es/drawer';
import Segmented from 'antd/es/segmented';
import Table, { type ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pageSizeOptions } from '../../../lib/list-query';
import { formatTime } from '../../../lib/time';
import { downloadExport, minerLogKeys, useMinerLogItems } from '../api';
import { formatBytes, itemStateLabel } from '../labels';
import { ExportStatus } from './ExportStatus';
import { ExportPicked, ExportWindow } from './export-columns';
import styles from './logs.module.css';

const stateColors: Record<MinerLogItemState, string> = {
  queued: 'default',
  requested: 'processing',
  done: 'success',
  failed: 'error',
  canceled: 'warning',
};

type StateFilter = MinerLogItemState | 'all';

/**
 * The miners of one export with what became of each (its log stored, or why it failed), filtered
 * by state and paged by the server; read again every 2 s while the export processes. The page keys
 * it by the export, so another export starts on its first page with no filter.
 */
export const ExportItemsDrawer = ({
  item,
  live,
  fboxNames,
  onClose,
}: {
  item: MinerLogExport | null;
  /** The export processes (as the list read it last): its miners are read again every 2 s. */
  live: boolean;
  fboxNames: ReadonlyMap<number, string>;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [state, setState] = useState<StateFilter>('all');
  const [paging, setPaging] = useState({ page: 1, limit: 20 });
  const id = item?.id ?? null;
  const items = useMinerLogItems(id, { ...paging, ...(state === 'all' ? {} : { state }) }, live);

  // Once it settles, its miners are read once more (the last ones settled after the last poll).
  const wasLive = useRef(live);
  useEffect(() => {
    if (wasLive.current && !live && id !== null)
      void queryClient.invalidateQueries({ queryKey: minerLogKeys.items({ id }) });
    wasLive.current = live;
  }, [id, live, queryClient]);

  const columns: ColumnsType<MinerLogItem> = [
    { key: 'fbox_name', title: t('field.fbox_name'), dataIndex: 'fbox_name' },
    { key: 'worker', title: t('field.worker'), render: (_, m) => m.worker || '-' },
    { key: 'sn', title: t('field.sn'), dataIndex: 'sn' },
    { key: 'ip', title: t('field.ip'), render: (_, m) => m.ip || '-' },
    {
      key: 'state',
      title: t('minerLogs.items.state'),
      render: (_, m) => (
        <Tag color={stateColors[m.state]} data-testid="miner-logs-item-state" data-state={m.state}>
          {itemStateLabel(t, m.state)}
        </Tag>
      ),
    },
    {
      key: 'error',
      title: t('minerLogs.items.reason'),
      render: (_, m) => (m.error ? <Typography.Text type="danger">{m.error}</Typography.Text> : '-'),
    },
    {
      key: 'bytes',
      title: t('minerLogs.column.size'),
      align: 'right',
      render: (_, m) => (m.state === 'done' ? formatBytes(m.bytes) : '-'),
    },
    { key: 'updated_at', title: t('minerLogs.column.updatedAt'), render: (_, m) => formatTime(m.updated_at) },
  ];

  return (
    <Drawer
      open={item !== null}
      title={item ? t('minerLogs.items.title', { id: item.id }) : ''}
      onClose={onClose}
      size={920}
      destroyOnHidden
      data-testid="miner-logs-items"
      extra={
        item &&
        item.status !== 'processing' && (
          <Button
            icon={<DownloadOutlined />}
            onClick={() => void downloadExport(item.id)}
            data-testid="miner-logs-items-download"
          >
            {t('minerLogs.action.download')}
          </Button>
        )
      }
    >
      {item && (
        <>
          <Descriptions
            className={styles.drawerSummary}
            size="small"
            column={2}
            bordered
            items={[
              {
                key: 'picked',
                label: t('minerLogs.column.picked'),
                span: 2,
                children: <ExportPicked t={t} item={item} fboxNames={fboxNames} />,
              },
              { key: 'window', label: t('minerLogs.column.window'), children: <ExportWindow item={item} /> },
              { key: 'status', label: t('minerLogs.column.status'), children: <ExportStatus item={item} /> },
              {
                key: 'counts',
                label: t('minerLogs.items.counts'),
                children: t('minerLogs.items.countsValue', {
                  total: item.total,
                  done: item.done,
                  failed: item.failed,
                }),
              },
              { key: 'bytes', label: t('minerLogs.column.size'), children: formatBytes(item.bytes) },
            ]}
          />
          <div className={styles.drawerToolbar}>
            <Segmented<StateFilter>
              value={state}
              onChange={(next) => {
                setState(next);
                setPaging((p) => ({ ...p, page: 1 }));
              }}
              options={[
                { value: 'all', label: t('minerLogs.items.all') },
                ...minerLogItemStates.map((s) => ({ value: s, label: itemStateLabel(t, s) })),
              ]}
              data-testid="miner-logs-items-state"
            />
          </div>
          {items.isError ? (
            <Alert
              type="error"
              showIcon
              title={t('common.table.error')}
              action={<Button onClick={() => void items.refetch()}>{t('common.action.retry')}</Button>}
            />
          ) : (
            <Table<MinerLogItem>
              rowKey="miner_id"
              size="small"
              columns={columns}
              dataSource={items.data?.items ?? []}
              loading={items.isFetching && !items.data}
              scroll={{ x: 'max-content' }}
              pagination={{
                current: paging.page,
                pageSize: paging.limit,
                total: items.data?.total ?? 0,
                showSizeChanger: true,
                pageSizeOptions: pageSizeOptions.map(String),
                showTotal: (total) => t('common.table.total', { total }),
                onChange: (page, limit) => setPaging((p) => ({ page: limit === p.limit ? page : 1, limit })),
              }}
              locale={{ emptyText: t('minerLogs.items.empty') }}
              data-testid="miner-logs-items-table"
            />
          )}
        </>
      )}
    </Drawer>
  );
};
