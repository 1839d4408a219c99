import { describe, expect, it } from 'vitest';
import { changeLanguage, i18n } from '../lib/i18n';
import { en } from './en';

/** A count followed (in the same sentence) by a plural noun of ours: it needs a singular form. */
const countedNoun = /\{\{count\}\}[^.?!]*?\b(miners|alerts|tanks|records|sub-accounts)\b/;

describe('plurals', () => {
  it('every English text that counts miners, alerts, tanks or records has a singular form', () => {
    const keys = Object.keys(en) as (keyof typeof en)[];
    const missing = keys.filter(
      (key) => !key.endsWith('_one') && countedNoun.test(en[key]) && !(`${key}_one` in en),
    );
    expect(missing).toEqual([]);
  });

  it('says "1 miner" and "2 miners" in English, and 台 for both in Chinese', async () => {
    expect(i18n.t('device.command.total', { count: 1 })).toBe('1 miner');
    expect(i18n.t('device.command.total', { count: 2 })).toBe('2 miners');
    expect(i18n.t('task.form.groupOption', { name: 'Hot rack', count: 1 })).toBe('Hot rack (1 miner)');
    await changeLanguage('zh');
    try {
      expect(i18n.t('device.command.total', { count: 1 })).toBe('共 1 台');
      expect(i18n.t('device.command.total', { count: 3 })).toBe('共 3 台');
    } finally {
      await changeLanguage('en');
    }
  });
});
