import { EmailSchema } from '@fbox/contracts';
import { describe, expect, it } from 'vitest';
import { fieldErrorText, localizeRule, schemaRule, toNamePath } from './form-rules';
import './i18n';

describe('form rules', () => {
  it('turns server field paths into form name paths', () => {
    expect(toNamePath('pushContent.mobileList.1.number', 'pushContent')).toEqual(['mobileList', 1, 'number']);
    expect(toNamePath('nickname')).toEqual(['nickname']);
  });

  it('localizes rule keys with their parameters', () => {
    expect(localizeRule('rule.range {"min":0,"max":10000}')).toBe('Must be a number from 0 to 10000');
    expect(fieldErrorText({ field: 'email', rule: 'rule.email', message: 'rule.email' })).toBe(
      'Must be a valid email address',
    );
    expect(fieldErrorText({ field: 'x', rule: 'custom', message: 'Server says no' })).toBe('Server says no');
  });

  it('validates with the contract schema', async () => {
    const rule = schemaRule(EmailSchema) as { validator: (r: unknown, v: unknown) => Promise<void> };
    await expect(rule.validator({}, 'a@b.co')).resolves.toBeUndefined();
    await expect(rule.validator({}, 'nope')).rejects.toThrow('Must be a valid email address');
  });
});
