import type { MinerLogExportStatus, MinerLogItemState, MinerLogScope } from '@fbox/contracts';
import type { TFunction } from 'i18next';

const UNITS = ['KB', 'MB', 'GB', 'TB'] as const;

/** Bytes in human units (1024 a step): `512 B`, `3.4 KB`, `12.0 MB`. */
export const formatBytes = (bytes: number): string => {
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${UNITS[unit]}`;
};

/** How the miners were picked, in words. */
export const scopeLabel = (t: TFunction, scope: MinerLogScope): string => t(`minerLogs.scope.${scope}`);

/** An export's status (spec §4) in words. */
export const statusLabel = (t: TFunction, status: MinerLogExportStatus): string =>
  t(`minerLogs.status.${status}`);

/** One miner's state within an export in words. */
export const itemStateLabel = (t: TFunction, state: MinerLogItemState): string =>
  t(`minerLogs.itemState.${state}`);

/** The share of an export's miners settled (done or failed), in whole percent. */
export const settledPercent = (e: { total: number; done: number; failed: number }): number =>
  e.total === 0 ? 100 : Math.floor(((e.done + e.failed) / e.total) * 100);

/**
 * A filter export's label as the server wrote it (`fbox_id=3, status=online`) in words ("FBOX:
 * Hydro 01, Status: Online"); anything it cannot read is shown as it came.
 */
export const filterLabel = (t: TFunction, label: string, fboxNames: ReadonlyMap<number, string>): string => {
  if (label === '') return t('minerLogs.filterAll');
  const parts = label.split(', ').map((part) => {
    const at = part.indexOf('=');
    if (at <= 0) return null;
    const key = part.slice(0, at);
    const value = part.slice(at + 1);
    const shown =
      key === 'fbox_id'
        ? (fboxNames.get(Number(value)) ?? `#${value}`)
        : key === 'status' && (value === 'online' || value === 'offline')
          ? t(`common.status.${value}`)
          : key === 'mode' && (value === 'high' || value === 'low')
            ? t(value === 'high' ? 'device.miner.modeHigh' : 'device.miner.modeLow')
            : key === 'tank_id'
              ? `#${value}`
              : value;
    const field = filterFields.includes(key as FilterField) ? t(`field.${key as FilterField}`) : key;
    return t('minerLogs.filterPart', { field, value: shown });
  });
  return parts.some((part) => part === null) ? label : parts.join(t('common.listSeparator'));
};

const filterFields = ['keyword', 'fbox_id', 'tank_id', 'status', 'model', 'brand', 'mode'] as const;
type FilterField = (typeof filterFields)[number];
