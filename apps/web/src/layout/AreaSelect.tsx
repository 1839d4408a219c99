import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { useAreaList, useSelectedArea } from '../features/mines';
import { selectArea } from '../lib/session';

/** Mine picker: the choice is stored and the app reloads at the root (spec §4). */
export const AreaSelect = () => {
  const { t } = useTranslation();
  const { data: areas = [] } = useAreaList();
  const selected = useSelectedArea();

  const onChange = (id: number) => {
    const area = areas.find((a) => a.id === id);
    if (!area || area.id === selected?.id) return;
    selectArea(area);
    window.location.assign('/');
  };

  return (
    <Select
      data-testid="area-select"
      aria-label={t('layout.navbar.area')}
      placeholder={t('layout.navbar.noArea')}
      style={{ width: 160 }}
      value={selected?.id}
      options={areas.map((area) => ({ value: area.id, label: area.area_name }))}
      onChange={onChange}
      disabled={areas.length === 0}
      popupMatchSelectWidth={false}
      // Few options: render them all (no virtual list), so each can be found and clicked.
      virtual={false}
    />
  );
};
