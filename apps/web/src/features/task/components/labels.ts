import type { GroupType, TaskStatus, TempSource } from '@fbox/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

/** Task statuses as spec §4 names them (shared texts, so the server's messages agree). */
export const useStatusLabels = (): Record<TaskStatus, string> => {
  const { t } = useTranslation();
  return {
    queued: t('taskStatus.queued'),
    running: t('taskStatus.running'),
    stopped: t('taskStatus.stopped'),
    expired: t('taskStatus.expired'),
    deleted: t('taskStatus.deleted'),
  };
};

export const useGroupTypeLabels = (): Record<GroupType, string> => {
  const { t } = useTranslation();
  return {
    miner_reboot: t('task.groupType.minerReboot'),
    pdu_reboot: t('task.groupType.pduReboot'),
    temp_mode: t('task.groupType.tempMode'),
  };
};

export const useSourceLabels = (): Record<TempSource, string> => {
  const { t } = useTranslation();
  return {
    tank_oil_outlet: t('task.source.tankOilOutlet'),
    miner_chip_max: t('task.source.minerChipMax'),
    fbox_temp: t('task.source.fboxTemp'),
  };
};

/** A duration in seconds, short and localized: "30 s", "5 min", "1 h 30 min". */
export const formatDuration = (t: TFunction, seconds: number): string => {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  const parts = [
    hours > 0 ? t('common.uptime.hours', { count: hours }) : '',
    minutes > 0 ? t('common.uptime.minutes', { count: minutes }) : '',
    rest > 0 || seconds === 0 ? t('common.uptime.seconds', { count: rest }) : '',
  ].filter(Boolean);
  return parts.join(t('common.uptime.separator'));
};
