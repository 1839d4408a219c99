import { EmailSchema } from '@fbox/contracts';
import { describe, expect, it } from 'vitest';
import { fieldErrorText, localizeRule, schemaRule, toNamePath } from './form-rules';
import { changeLanguage } from './i18n';

describe('form rules', () => {
  it('turns server field paths into form name paths', () => {
    expect(toNamePath('pushContent.mobileList.1.number', 'pushContent')).toEqual(['mobileList', 1, 'number']);
    expect(toNamePath('nickname')).toEqual(['nickname']);
  });

  it('localizes rule keys with their parameters', () => {
    expect(localizeRule('rule.range {"min":0,"max":10000}')).toBe('Must be a number from 0 to 10000');
    expect(fieldErrorText({ field: 'x', rule: 'custom', message: 'Server says no' })).toBe('Server says no');
    // A rule sent without its parameters: the server's whole message, never "{{max}}".
    expect(
      fieldErrorText({
        field: 'to',
        rule: 'rule.windowMaxDays',
        message: 'the window may span at most 7 days',
      }),
    ).toBe('the window may span at most 7 days');
    expect(fieldErrorText({ field: 'to', rule: 'rule.windowMaxDays {"max":7}', message: '' })).toBe(
      'The window may span at most 7 days',
    );
  });

  it('names the field of a server error, so "is required" never stands alone', async () => {
    expect(fieldErrorText({ field: 'email', rule: 'rule.email', message: 'rule.email' })).toBe(
      'Email must be a valid email address',
    );
    expect(fieldErrorText({ field: 'username', rule: 'rule.required', message: 'rule.required' })).toBe(
      'Username is required',
    );
    expect(
      fieldErrorText({ field: 'pushContent.emailList.0', rule: 'rule.required', message: 'rule.required' }),
    ).toBe('Emails is required');
    // A field the messages do not name keeps the sentence, capitalized.
    expect(fieldErrorText({ field: 'x', rule: 'rule.required', message: 'rule.required' })).toBe(
      'Is required',
    );
    await changeLanguage('zh');
    try {
      expect(fieldErrorText({ field: 'username', rule: 'rule.required', message: 'rule.required' })).toBe(
        '用户名不能为空',
      );
    } finally {
      await changeLanguage('en');
    }
  });

  it('validates with the contract schema', async () => {
    const rule = schemaRule(EmailSchema, { label: 'Email' }) as {
      validator: (r: unknown, v: unknown) => Promise<void>;
    };
    await expect(rule.validator({}, 'a@b.co')).resolves.toBeUndefined();
    await expect(rule.validator({}, 'nope')).rejects.toThrow('Email must be a valid email address');
  });
});
