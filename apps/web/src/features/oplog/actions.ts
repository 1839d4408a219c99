import { routes } from 'virtual:endpoint-routes';
import { actionLabelKey, isRecordedEndpoint, type SharedMessageKey, sharedEn } from '@fbox/contracts';
import type { TFunction } from 'i18next';

/**
 * The actions the operation log records, straight from the endpoint table: every endpoint marked
 * `mutates`, plus login and logout. A new endpoint shows up here by itself and needs only its label
 * (`oplog.action.<name>` in the shared messages).
 */
export const recordedActions: string[] = Object.entries(routes)
  .filter(([name, e]) => isRecordedEndpoint(name, e))
  .map(([name]) => name);

/** The label key of an action, or null when the action has no label yet. */
export const actionKey = (action: string): SharedMessageKey | null => {
  const key = actionLabelKey(action);
  return key in sharedEn ? (key as SharedMessageKey) : null;
};

/** An action in the user's language; its endpoint name when no label exists (never a raw key). */
export const actionLabel = (t: TFunction, action: string): string => {
  const key = actionKey(action);
  return key ? t(key) : action;
};
