import Empty from 'antd/es/empty';
import Skeleton from 'antd/es/skeleton';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../lib/time';
import { useCameraImages } from './api';
import { CameraImage } from './CameraImage';
import styles from './camera.module.css';

/**
 * The latest snapshot of one camera with its name and time: a tile a board (or any page) can place.
 * Refreshes as the snapshots do (every minute).
 */
export const CameraTile = ({
  fboxId,
  cameraId,
  name,
}: {
  fboxId: number;
  cameraId: number;
  name?: string;
}) => {
  const { t } = useTranslation();
  const latest = useCameraImages(fboxId, { cameraId, page: 1, limit: 1 });
  const image = latest.data?.items[0];
  return (
    <div className={styles.tile} data-testid={`camera-tile-${cameraId}`}>
      {latest.isPending ? (
        <Skeleton.Image active />
      ) : latest.isError ? (
        <Typography.Text type="danger">{t('camera.image.error')}</Typography.Text>
      ) : image ? (
        <CameraImage id={image.id} alt={image.camera_name} />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('camera.gallery.empty')} />
      )}
      <div className={styles.tileCaption}>
        <Typography.Text strong ellipsis>
          {image?.camera_name ?? name ?? ''}
        </Typography.Text>
        {image && <Typography.Text type="secondary">{formatTime(image.taken_at)}</Typography.Text>}
      </div>
    </div>
  );
};
