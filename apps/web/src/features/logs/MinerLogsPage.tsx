import { FileZipOutlined } from '@ant-design/icons';
import type { MinerLogExport } from '@fbox/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Table from 'antd/es/table';
import Typography from 'antd/es/typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CreateButton } from '../../components/CreateButton';
import { useCan } from '../../lib/access';
import { pageSizeOptions } from '../../lib/list-query';
import { useStore } from '../../lib/store';
import { timeZoneStore } from '../../lib/time';
import { useListQuery } from '../../lib/use-list-query';
import { useFboxOptions } from '../device';
import { useMinerLogExports } from './api';
import { ExportItemsDrawer } from './components/ExportItemsDrawer';
import { exportColumns } from './components/export-columns';
import styles from './components/logs.module.css';
import { NewExportDialog } from './components/NewExportDialog';

const filterKeys: readonly string[] = [];

/**
 * Export miner logs (/logs/minerLogs, spec §2–§4): the selected mine's exports, newest first and
 * paged by the server, each with its window, what it picked, its status and counts; its progress
 * live (read every 2 s while one processes). A new export picks miners and a window; a row offers
 * its details (every miner's outcome), the zip, cancel and delete.
 */
export const MinerLogsPage = () => {
  const { t } = useTranslation();
  useStore(timeZoneStore);
  const list = useListQuery({ filterKeys });
  const { page, limit } = list.query;
  const exports = useMinerLogExports({ page, limit });
  const fboxes = useFboxOptions();
  const [creating, setCreating] = useState(false);
  const [detailsId, setDetailsId] = useState<number | null>(null);
  // The open export as the list shows it now (live), or as it was when opened.
  const [opened, setOpened] = useState<MinerLogExport | null>(null);
  const current = exports.data?.items.find((e) => e.id === detailsId);
  const details = detailsId === null ? null : (current ?? opened);
  const fboxNames = useMemo(() => new Map((fboxes.data ?? []).map((f) => [f.id, f.name])), [fboxes.data]);
  const columns = exportColumns(t, {
    fboxNames,
    onDetails: (item) => {
      setOpened(item);
      setDetailsId(item.id);
    },
  });
  const can = useCan();
  // Starting an export sends commands to the gateways: for those who may (the server's rule).
  const create = can('minerLogExport') && (
    <CreateButton
      label={t('minerLogs.create')}
      testId="miner-logs-create"
      onClick={() => setCreating(true)}
    />
  );
  const empty = exports.data !== undefined && exports.data.total === 0;

  return (
    <Card title={t('app.route.minerLogs')} extra={!empty && create} data-testid="miner-logs-page">
      {exports.isError && !exports.data ? (
        <Alert
          type="error"
          showIcon
          title={t('common.table.error')}
          action={<Button onClick={() => void exports.refetch()}>{t('common.action.retry')}</Button>}
          data-testid="miner-logs-error"
        />
      ) : empty && page === 1 ? (
        <Empty
          className={styles.empty}
          image={<FileZipOutlined style={{ fontSize: 56, color: 'var(--ant-color-text-quaternary)' }} />}
          description={
            <div className={styles.emptyText}>
              <Typography.Title level={5}>{t('minerLogs.empty.title')}</Typography.Title>
              <Typography.Paragraph type="secondary">{t('minerLogs.empty.text')}</Typography.Paragraph>
            </div>
          }
          data-testid="miner-logs-empty"
        >
          {create}
        </Empty>
      ) : (
        <Table<MinerLogExport>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={exports.data?.items ?? []}
          loading={exports.isPending}
          scroll={{ x: 'max-content' }}
          pagination={{
            current: page,
            pageSize: limit,
            total: exports.data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: pageSizeOptions.map(String),
            showTotal: (total) => t('common.table.total', { total }),
            onChange: (next, size) => list.update({ page: next, limit: size }),
          }}
          data-testid="miner-logs-table"
        />
      )}
      {creating && (
        <NewExportDialog
          onClose={() => setCreating(false)}
          onStarted={() => {
            setCreating(false);
            // Newest first: the new export is at the top of the first page.
            list.update({ page: 1 });
          }}
        />
      )}
      <ExportItemsDrawer
        key={opened?.id}
        item={details}
        live={current?.status === 'processing'}
        fboxNames={fboxNames}
        onClose={() => setDetailsId(null)}
      />
    </Card>
  );
};
