import type { Authority, OperatorRule } from '@fbox/contracts';
import { useTranslation } from 'react-i18next';

/** Access authorities in the user's language. */
export const useAuthorityLabels = (): Record<Authority, string> => {
  const { t } = useTranslation();
  return { administrator: t('set.sub.administrator'), operator: t('set.sub.operator') };
};

/** Operator rules (device actions, tasks, alert rules) in the user's language. */
export const useRuleLabels = (): Record<OperatorRule, string> => {
  const { t } = useTranslation();
  return {
    minerControl: t('set.sub.ruleMinerControl'),
    minerPool: t('set.sub.ruleMinerPool'),
    tankControl: t('set.sub.ruleTankControl'),
    taskControl: t('set.sub.ruleTaskControl'),
    alertRules: t('set.sub.ruleAlertRules'),
  };
};
