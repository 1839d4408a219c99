import { timeZones } from '@fbox/contracts';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { useSetUserInfo, useUserInfo } from '../features/auth';

const options = timeZones.map((zone) => ({ value: zone, label: zone }));

/** UTC-12 … UTC+12, saved to the profile; every time on screen follows it. */
export const TimeZoneSelect = () => {
  const { t } = useTranslation();
  const { data: user } = useUserInfo();
  const setUserInfo = useSetUserInfo();
  return (
    <Select
      data-testid="tz-select"
      aria-label={t('field.time_zone')}
      style={{ width: 110 }}
      value={user?.time_zone || undefined}
      placeholder={t('field.time_zone')}
      options={options}
      showSearch
      loading={setUserInfo.isPending}
      onChange={(time_zone: string) => setUserInfo.mutate({ time_zone })}
      popupMatchSelectWidth={false}
      // Few options: render them all (no virtual list), so each can be found and clicked.
      virtual={false}
    />
  );
};
