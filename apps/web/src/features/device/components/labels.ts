import type { Command, FboxKind, MinerListItem } from '@fbox/contracts';
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

/**
 * A miner's fault codes in words (`fan, chain` → "Fan, Hash board chain"); a code the messages do
 * not name (a new firmware's) is shown as reported.
 */
export const useFaultText = (): ((codes: string) => string) => {
  const { t, i18n } = useTranslation();
  return (codes) =>
    codes
      .split(',')
      .map((code) => code.trim())
      .filter(Boolean)
      .map((code) => (i18n.exists(`fault.${code}`) ? t(`fault.${code}` as 'fault.fan') : code))
      .join(t('common.listSeparator'));
};

/** A command in words: "Power mode: Low", "Restart". */
export const useCommandText = (): ((command: Pick<Command, 'kind' | 'variant'>) => string) => {
  const { t } = useTranslation();
  return ({ kind, variant }) => {
    const label = t(`device.commandKind.${kind}`);
    return variant
      ? t('device.command.withVariant', { kind: label, variant: t(`device.commandVariant.${variant}`) })
      : label;
  };
};

/** How a miner is named on screen: its worker, else its IP, else its SN. */
export const minerName = (miner: Pick<MinerListItem, 'worker' | 'ip' | 'sn'>): string =>
  miner.worker || miner.ip || miner.sn;
