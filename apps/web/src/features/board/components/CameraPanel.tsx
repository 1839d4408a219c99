import { routes } from 'virtual:endpoint-routes';
import type { DataBoard } from '@fbox/contracts';
import { useTranslation } from 'react-i18next';
import { useStore } from '../../../lib/store';
import { formatTime, timeZoneStore } from '../../../lib/time';
import { CameraImage } from '../../camera';
import tile from './BoardTile.module.css';
import styles from './CameraPanel.module.css';

/**
 * A kiosk link's snapshot address: a public GET of the board's token and the image, so a plain
 * `<img>` reads it (a wall TV holds no session whose header a fetch could send).
 */
const kioskImageUrl = (token: string, id: number) =>
  `${routes.kioskCameraImage.path}?${new URLSearchParams({ token, id: String(id) })}`;

/**
 * A data board's camera tile: the latest snapshot of the board's camera with the camera's and its
 * FBOX's names and when it was taken. It follows the board's refreshes, so a new snapshot shows
 * when the board reads its figures again.
 */
export const CameraPanel = ({
  camera,
  areaId,
  kiosk,
  className,
}: {
  camera: NonNullable<DataBoard['camera']>;
  /** The board's mine (it may not be the one selected in the console). */
  areaId: number;
  kiosk: string | null;
  className?: string;
}) => {
  const { t } = useTranslation();
  const zone = useStore(timeZoneStore);
  const image = camera.image;
  return (
    <section className={`${tile.tile} ${tile.panel} ${className ?? ''}`} data-testid="board-camera">
      <h2 className={tile.heading}>
        <span className={styles.name}>{camera.name}</span>
        <span className={tile.headingNote}>{camera.fbox_name}</span>
      </h2>
      <div className={styles.frame}>
        {image === null ? (
          <div className={styles.none} data-testid="board-camera-none">
            {t('board.camera.none')}
          </div>
        ) : kiosk ? (
          <img
            src={kioskImageUrl(kiosk, image.id)}
            alt={camera.name}
            className={styles.image}
            data-testid="board-camera-image"
          />
        ) : (
          <CameraImage
            id={image.id}
            areaId={areaId}
            alt={camera.name}
            className={styles.image}
            testId="board-camera-image"
          />
        )}
      </div>
      {image && (
        <div className={styles.time} data-testid="board-camera-time">
          {t('board.camera.takenAt', { time: formatTime(image.taken_at, zone) })}
        </div>
      )}
    </section>
  );
};
