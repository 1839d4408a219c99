import type { FboxKind } from '@fbox/contracts';
import { useTranslation } from 'react-i18next';

/** FBOX kinds in the user's language. */
export const useKindLabels = (): Record<FboxKind, string> => {
  const { t } = useTranslation();
  return {
    air: t('device.box.kindAir'),
    immersion: t('device.box.kindImmersion'),
    hydro: t('device.box.kindHydro'),
  };
};

/** Online / offline filter choices. */
export const useStatusOptions = () => {
  const { t } = useTranslation();
  return [
    { text: t('common.status.online'), value: 'online', label: t('common.status.online') },
    { text: t('common.status.offline'), value: 'offline', label: t('common.status.offline') },
  ];
};

/** Miner power modes. */
export const useModeLabels = (): Record<'high' | 'low', string> => {
  const { t } = useTranslation();
  return { high: t('device.miner.modeHigh'), low: t('device.miner.modeLow') };
};
