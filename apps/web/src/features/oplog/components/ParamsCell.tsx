import Typography from 'antd/es/typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './oplog.module.css';

/** The recorded parameters: one shortened line, expandable to the whole JSON. */
export const ParamsCell = ({ params }: { params: unknown }) => {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const compact = JSON.stringify(params ?? {});
  if (compact === '{}') return <>-</>;
  return (
    <div className={styles.params}>
      {open ? (
        <pre className={styles.json}>{JSON.stringify(params, null, 2)}</pre>
      ) : (
        <span className={styles.compact}>{compact}</span>
      )}
      <Typography.Link onClick={() => setOpen(!open)} data-testid="oplog-params-toggle">
        {open ? t('oplog.params.hide') : t('oplog.params.show')}
      </Typography.Link>
    </div>
  );
};
