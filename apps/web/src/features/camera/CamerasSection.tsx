import type { Camera, CameraStatus } from '@fbox/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Skeleton from 'antd/es/skeleton';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeleteButton } from '../../components/DeleteButton';
import { useCan } from '../../lib/access';
import { formatTime } from '../../lib/time';
import { useCameraStatus, useDeleteCamera } from './api';
import { CameraDialog } from './CameraDialog';
import { CameraGallery } from './CameraGallery';
import { CameraSettingsDialog } from './CameraSettingsDialog';
import styles from './camera.module.css';

type CameraRow = CameraStatus['cameras'][number];
type Dialog = { kind: 'camera'; camera: Camera | null } | { kind: 'settings' } | null;

const OnlineTag = ({ online }: { online: boolean | null }) => {
  const { t } = useTranslation();
  if (online === null) return <Tag>{t('camera.status.unknown')}</Tag>;
  return online ? (
    <Tag color="success">{t('common.status.online')}</Tag>
  ) : (
    <Tag color="default">{t('common.status.offline')}</Tag>
  );
};

/**
 * The cameras of an FBOX on its detail page: each one's status on the media server (online,
 * readers, last snapshot and why it last failed), adding, editing and deleting them (masters and
 * administrators), the mine's snapshot settings, and the snapshots by time. Without a media server
 * (`ZLM_URL`) it says "not configured".
 */
export const CamerasSection = ({ fboxId }: { fboxId: number }) => {
  const { t } = useTranslation();
  const can = useCan();
  const status = useCameraStatus(fboxId);
  const remove = useDeleteCamera();
  const [dialog, setDialog] = useState<Dialog>(null);
  const data = status.data;
  const manage = can('cameraSave');

  const columns = [
    { title: t('camera.field.name'), dataIndex: 'name', key: 'name' },
    {
      title: t('camera.field.stream'),
      dataIndex: 'stream',
      key: 'stream',
      render: (stream: string) => <Typography.Text code>{stream}</Typography.Text>,
    },
    {
      title: t('camera.field.status'),
      key: 'online',
      render: (_: unknown, row: CameraRow) => <OnlineTag online={row.online} />,
    },
    {
      title: t('camera.field.readers'),
      dataIndex: 'readers',
      key: 'readers',
      render: (readers: number | null) => (readers === null ? '-' : readers),
    },
    {
      title: t('camera.field.lastSnapshot'),
      key: 'last',
      render: (_: unknown, row: CameraRow) => (
        <Space orientation="vertical" size={0}>
          <span>
            {row.last_snapshot_at ? formatTime(row.last_snapshot_at) : t('camera.status.noSnapshot')}
          </span>
          {row.last_error && (
            <Typography.Text className={styles.error} data-testid={`camera-error-${row.id}`}>
              {row.last_error}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    ...(manage
      ? [
          {
            title: t('camera.field.actions'),
            key: 'actions',
            render: (_: unknown, row: CameraRow) => (
              <Space>
                <Button
                  onClick={() => setDialog({ kind: 'camera', camera: row })}
                  data-testid={`camera-edit-${row.id}`}
                >
                  {t('common.action.edit')}
                </Button>
                <DeleteButton
                  question={t('camera.deleteConfirm', { name: row.name })}
                  testId={`camera-delete-${row.id}`}
                  onConfirm={() => remove.mutateAsync(row.id)}
                />
              </Space>
            ),
          },
        ]
      : []),
  ];

  const extra = manage && data && (
    <Space>
      <Button onClick={() => setDialog({ kind: 'settings' })} data-testid="camera-settings">
        {t('camera.settings.open')}
      </Button>
      <Button
        type="primary"
        onClick={() => setDialog({ kind: 'camera', camera: null })}
        data-testid="camera-add"
      >
        {t('camera.add')}
      </Button>
    </Space>
  );

  return (
    <Card size="small" title={t('camera.title')} extra={extra} data-testid="camera-section">
      {status.isError ? (
        <Alert
          type="error"
          showIcon
          title={t('camera.loadError')}
          action={<Button onClick={() => void status.refetch()}>{t('common.action.retry')}</Button>}
        />
      ) : !data ? (
        <Skeleton active />
      ) : (
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          {!data.configured && (
            <Alert
              type="warning"
              showIcon
              title={t('camera.notConfigured')}
              data-testid="camera-not-configured"
            />
          )}
          {data.error && (
            <Alert
              type="error"
              showIcon
              title={t('camera.mediaError')}
              description={data.error}
              data-testid="camera-media-error"
            />
          )}
          {data.cameras.length === 0 ? (
            <Empty description={t('camera.empty')} data-testid="camera-empty" />
          ) : (
            <>
              <Typography.Text type="secondary">
                {t('camera.schedule', { minutes: data.interval_minutes, days: data.retention_days })}
              </Typography.Text>
              <Table<CameraRow>
                size="small"
                rowKey="id"
                pagination={false}
                columns={columns}
                dataSource={data.cameras}
                scroll={{ x: 'max-content' }}
                data-testid="camera-table"
              />
              <CameraGallery fboxId={fboxId} cameras={data.cameras} />
            </>
          )}
        </Space>
      )}
      {dialog?.kind === 'camera' && (
        <CameraDialog fboxId={fboxId} camera={dialog.camera} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'settings' && data && (
        <CameraSettingsDialog settings={data} onClose={() => setDialog(null)} />
      )}
    </Card>
  );
};
