import { endpoints, sharedEn, sharedZh } from '@fbox/contracts';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { actionKey, actionLabel, recordedActions } from './actions';

describe('operation log action labels', () => {
  it('lists every state-changing endpoint, plus login and logout, and no read', () => {
    const mutating = Object.entries(endpoints)
      .filter(([, e]) => (e as { mutates?: boolean }).mutates === true)
      .map(([name]) => name);
    expect(recordedActions).toEqual(expect.arrayContaining([...mutating, 'login', 'logout']));
    expect(recordedActions).toHaveLength(mutating.length + 2);
    expect(recordedActions).not.toContain('minerList');
    expect(recordedActions).not.toContain('oplogList');
  });

  it('has a label in English and Chinese for every recorded action', () => {
    const missing = recordedActions.filter((action) => actionKey(action) === null);
    expect(missing, 'add oplog.action.<name> to sharedEn and sharedZh').toEqual([]);
    for (const action of recordedActions) {
      const key = actionKey(action)!;
      expect(sharedEn[key]).not.toBe('');
      expect(sharedZh[key]).not.toBe(sharedEn[key]);
    }
  });

  it('translates a known action and falls back to the endpoint name for an unknown one', () => {
    const t = ((key: string) => `T(${key})`) as unknown as TFunction;
    expect(actionLabel(t, 'fboxCreate')).toBe('T(oplog.action.fboxCreate)');
    expect(actionLabel(t, 'someFutureAction')).toBe('someFutureAction');
  });
});
