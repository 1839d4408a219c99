import type { MinerLogExport } from '@fbox/contracts';
import Button from 'antd/es/button';
import Popconfirm from 'antd/es/popconfirm';
import Space from 'antd/es/space';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../lib/access';
import { downloadExport, useExportAction } from '../api';

/**
 * A row's actions: Details always; Download once the export is finished or canceled; Cancel while
 * it processes; Delete (a processing export is canceled by it). Cancel and Delete ask first, and
 * show only to those who may send miner commands (the server's rule for them).
 */
export const ExportRowActions = ({ item, onDetails }: { item: MinerLogExport; onDetails: () => void }) => {
  const { t } = useTranslation();
  const action = useExportAction();
  const can = useCan();
  const processing = item.status === 'processing';
  // A refusal (the export settled meanwhile) is already shown as a toast.
  const run = (kind: 'cancel' | 'delete') =>
    action.mutateAsync({ id: item.id, action: kind }).catch(() => undefined);
  return (
    <Space size={0} wrap>
      <Button type="link" size="small" onClick={onDetails} data-testid={`miner-logs-details-${item.id}`}>
        {t('minerLogs.action.details')}
      </Button>
      {!processing && (
        <Button
          type="link"
          size="small"
          onClick={() => void downloadExport(item.id)}
          data-testid={`miner-logs-download-${item.id}`}
        >
          {t('minerLogs.action.download')}
        </Button>
      )}
      {processing && can('minerLogExportCancel') && (
        <Popconfirm
          title={t('minerLogs.confirm.cancel', { id: item.id })}
          description={t('minerLogs.confirm.cancelHint')}
          okText={t('minerLogs.action.cancelExport')}
          cancelText={t('minerLogs.action.keep')}
          okButtonProps={{ 'data-testid': 'miner-logs-cancel-ok' } as never}
          onConfirm={() => run('cancel')}
        >
          <Button type="link" size="small" data-testid={`miner-logs-cancel-${item.id}`}>
            {t('minerLogs.action.cancel')}
          </Button>
        </Popconfirm>
      )}
      {can('minerLogExportDelete') && (
        <Popconfirm
          title={t('minerLogs.confirm.delete', { id: item.id })}
          description={
            processing ? t('minerLogs.confirm.deleteProcessing') : t('minerLogs.confirm.deleteHint')
          }
          okText={t('common.action.delete')}
          cancelText={t('common.action.cancel')}
          okButtonProps={{ danger: true, 'data-testid': 'miner-logs-delete-ok' } as never}
          onConfirm={() => run('delete')}
        >
          <Button type="link" size="small" danger data-testid={`miner-logs-delete-${item.id}`}>
            {t('common.action.delete')}
          </Button>
        </Popconfirm>
      )}
    </Space>
  );
};
