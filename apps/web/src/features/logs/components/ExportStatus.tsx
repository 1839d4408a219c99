import type { MinerLogExport, MinerLogExportStatus } from '@fbox/contracts';
import Progress from 'antd/es/progress';
import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import { settledPercent, statusLabel } from '../labels';
import styles from './logs.module.css';

const colors: Record<MinerLogExportStatus, string> = {
  processing: 'processing',
  finished: 'success',
  canceled: 'default',
};

/** An export's status (spec §4); while processing, a bar of its settled miners (done + failed of total). */
export const ExportStatus = ({ item }: { item: MinerLogExport }) => {
  const { t } = useTranslation();
  const settled = item.done + item.failed;
  return (
    <div className={styles.status}>
      <span>
        <Tag color={colors[item.status]} data-testid="miner-logs-status" data-status={item.status}>
          {statusLabel(t, item.status)}
        </Tag>
      </span>
      {item.status === 'processing' && (
        <Progress
          className={styles.progress}
          percent={settledPercent(item)}
          size="small"
          status="active"
          format={() => t('minerLogs.progress', { settled, total: item.total })}
          data-testid="miner-logs-progress"
        />
      )}
    </div>
  );
};
