import ColorPicker from 'antd/es/color-picker';
import Drawer from 'antd/es/drawer';
import Switch from 'antd/es/switch';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { changeSetting, type LayoutSettings, useSettings } from '../lib/ui-store';
import styles from './Layout.module.css';

const presets = ['#1890ff', '#13c2c2', '#52c41a', '#fa8c16', '#f5222d', '#722ed1', '#2f54eb', '#304156'];

const Row = ({ label, children }: { label: string; children: ReactNode }) => (
  <div className={styles.settingRow}>
    <span>{label}</span>
    {children}
  </div>
);

type Toggle = Exclude<keyof LayoutSettings, 'themeColor'>;
const toggles: {
  key: Toggle;
  labelKey: 'layout.settings.tagsView' | 'layout.settings.fixedHeader' | 'layout.settings.sidebarLogo';
}[] = [
  { key: 'tagsView', labelKey: 'layout.settings.tagsView' },
  { key: 'fixedHeader', labelKey: 'layout.settings.fixedHeader' },
  { key: 'sidebarLogo', labelKey: 'layout.settings.sidebarLogo' },
];

/** Right-hand drawer: theme colour, tags view, fixed header, sidebar logo (persisted). */
export const SettingsDrawer = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { t } = useTranslation();
  const settings = useSettings();
  return (
    <Drawer title={t('layout.settings.title')} placement="right" open={open} onClose={onClose} size={300}>
      <Row label={t('layout.settings.themeColor')}>
        <ColorPicker
          data-testid="setting-themeColor"
          value={settings.themeColor}
          disabledAlpha
          presets={[{ label: t('layout.settings.presets'), colors: presets }]}
          onChangeComplete={(color) => changeSetting('themeColor', color.toHexString())}
        />
      </Row>
      {toggles.map(({ key, labelKey }) => (
        <Row key={key} label={t(labelKey)}>
          <Switch
            data-testid={`setting-${key}`}
            checked={settings[key]}
            onChange={(checked) => changeSetting(key, checked)}
          />
        </Row>
      ))}
    </Drawer>
  );
};
