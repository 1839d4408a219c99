import { cameraImagePage, timeZoneOffsetMinutes } from '@fbox/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import DatePicker from 'antd/es/date-picker';
import Empty from 'antd/es/empty';
import Modal from 'antd/es/modal';
import Pagination from 'antd/es/pagination';
import Select from 'antd/es/select';
import Skeleton from 'antd/es/skeleton';
import Space from 'antd/es/space';
import Typography from 'antd/es/typography';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, timeZoneStore } from '../../lib/time';
import { useCameraImages } from './api';
import { CameraImage } from './CameraImage';
import styles from './camera.module.css';

/** Midnight starting a picked day in the user's time zone (browser time when unknown), epoch ms. */
const startOfDay = (day: Dayjs, zone: string | null): number => {
  const utc = Date.UTC(day.year(), day.month(), day.date());
  const offset =
    zone === null ? -new Date(utc).getTimezoneOffset() * 60_000 : timeZoneOffsetMinutes(zone) * 60_000;
  return utc - offset;
};

/**
 * The FBOX's snapshots by time, newest first: one camera or all, a range of days, a page of
 * thumbnails; a click shows the image large, with the previous and next ones a step away.
 */
export const CameraGallery = ({
  fboxId,
  cameras,
}: {
  fboxId: number;
  cameras: { id: number; name: string }[];
}) => {
  const { t } = useTranslation();
  const [cameraId, setCameraId] = useState<number | undefined>(undefined);
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<number | null>(null);
  const zone = timeZoneStore.get();
  const from = range ? startOfDay(range[0], zone) : undefined;
  const to = range ? startOfDay(range[1].add(1, 'day'), zone) : undefined;
  const images = useCameraImages(fboxId, { cameraId, from, to, page, limit: cameraImagePage.default });
  const items = images.data?.items ?? [];
  const shown = open === null ? undefined : items[open];

  return (
    <div data-testid="camera-gallery">
      <div className={styles.toolbar}>
        <Typography.Text strong>{t('camera.gallery.title')}</Typography.Text>
        <Select<number | undefined>
          value={cameraId}
          onChange={(value) => {
            setCameraId(value);
            setPage(1);
          }}
          allowClear
          placeholder={t('camera.gallery.allCameras')}
          style={{ minWidth: 180 }}
          options={cameras.map((c) => ({ value: c.id, label: c.name }))}
          aria-label={t('camera.gallery.camera')}
          data-testid="camera-gallery-camera"
        />
        <DatePicker.RangePicker
          value={range}
          onChange={(dates) => {
            const [first, last] = dates ?? [null, null];
            setRange(first && last ? [first, last] : null);
            setPage(1);
          }}
          aria-label={t('camera.gallery.time')}
          placeholder={[t('field.from'), t('field.to')]}
          data-testid="camera-gallery-range"
        />
      </div>
      {images.isError ? (
        <Alert
          type="error"
          showIcon
          style={{ marginTop: 12 }}
          title={t('camera.gallery.loadError')}
          action={<Button onClick={() => void images.refetch()}>{t('common.action.retry')}</Button>}
        />
      ) : images.isPending ? (
        <Skeleton active style={{ marginTop: 12 }} />
      ) : items.length === 0 ? (
        <Empty description={t('camera.gallery.empty')} data-testid="camera-gallery-empty" />
      ) : (
        <>
          <div className={styles.gallery}>
            {items.map((image, index) => (
              <button
                type="button"
                key={image.id}
                className={styles.thumb}
                onClick={() => setOpen(index)}
                data-testid={`camera-thumb-${image.id}`}
              >
                <CameraImage id={image.id} alt={`${image.camera_name} ${formatTime(image.taken_at)}`} />
                <span className={styles.thumbCaption}>
                  <span>{image.camera_name}</span>
                  <span>{formatTime(image.taken_at)}</span>
                </span>
              </button>
            ))}
          </div>
          <Pagination
            style={{ marginTop: 12 }}
            current={page}
            pageSize={cameraImagePage.default}
            total={images.data?.total ?? 0}
            showSizeChanger={false}
            onChange={setPage}
            showTotal={(total) => t('camera.gallery.total', { count: total })}
          />
        </>
      )}
      <Modal
        open={shown !== undefined}
        onCancel={() => setOpen(null)}
        footer={null}
        width={960}
        title={shown && `${shown.camera_name} · ${formatTime(shown.taken_at)}`}
        destroyOnHidden
      >
        {shown && (
          <Space orientation="vertical" style={{ width: '100%' }}>
            <CameraImage
              id={shown.id}
              alt={`${shown.camera_name} ${formatTime(shown.taken_at)}`}
              className={styles.large}
              testId="camera-large"
            />
            <Space>
              <Button
                disabled={open === 0}
                onClick={() => setOpen((i) => (i ?? 1) - 1)}
                data-testid="camera-newer"
              >
                {t('camera.gallery.newer')}
              </Button>
              <Button
                disabled={open === items.length - 1}
                onClick={() => setOpen((i) => (i ?? 0) + 1)}
                data-testid="camera-older"
              >
                {t('camera.gallery.older')}
              </Button>
            </Space>
          </Space>
        )}
      </Modal>
    </div>
  );
};
