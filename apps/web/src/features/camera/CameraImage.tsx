import Skeleton from 'antd/es/skeleton';
import { useTranslation } from 'react-i18next';
import { useCameraImageUrl } from './api';
import styles from './camera.module.css';

/**
 * A captured image, fetched with the session (see `useCameraImageUrl`): a placeholder while it
 * loads, a short note when it cannot be read.
 */
export const CameraImage = ({
  id,
  alt,
  className,
  testId,
  areaId,
}: {
  id: number;
  alt: string;
  className?: string;
  testId?: string;
  /** The image's mine, when not the selected one. */
  areaId?: number;
}) => {
  const { t } = useTranslation();
  const image = useCameraImageUrl(id, areaId);
  if (image.isError)
    return (
      <div className={`${styles.imageBox} ${className ?? ''}`} data-testid={testId && `${testId}-error`}>
        {t('camera.image.error')}
      </div>
    );
  if (!image.url)
    return (
      <div className={`${styles.imageBox} ${className ?? ''}`}>
        <Skeleton.Image active />
      </div>
    );
  return (
    <img src={image.url} alt={alt} className={`${styles.image} ${className ?? ''}`} data-testid={testId} />
  );
};
