import DatePicker from 'antd/es/date-picker';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useStore } from '../../../lib/store';
import { timeZoneStore } from '../../../lib/time';

export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm';

interface Props {
  value?: Dayjs | null;
  onChange?: (value: Dayjs | null) => void;
  id?: string;
  testId?: string;
}

/** A date and time in the user's time zone (named beside it); see zoned-time.ts for the mapping. */
export const ZonedDateTime = ({ value, onChange, id, testId }: Props) => {
  const { t } = useTranslation();
  const zone = useStore(timeZoneStore);
  return (
    <DatePicker
      id={id}
      showTime={{ format: 'HH:mm' }}
      format={DATE_TIME_FORMAT}
      value={value}
      onChange={(next) => onChange?.(next)}
      style={{ width: '100%' }}
      suffixIcon={zone ?? t('task.form.localTime')}
      data-testid={testId}
    />
  );
};
