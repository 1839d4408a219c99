import {
  type FieldError,
  type Language,
  parseRuleMessage,
  rule,
  type SharedMessageKey,
  sharedEn,
  translate,
} from '@fbox/contracts';
import type { z } from 'zod';

type Issue = z.core.$ZodIssue & { input?: unknown };
type Rule = { key: SharedMessageKey; params: Record<string, string | number> };

const isKey = (key: string): key is SharedMessageKey => key in sharedEn;

/** Rule of an issue whose message is not one of our `rule.*` keys: derived from zod's issue code. */
const ruleFromCode = (issue: Issue): Rule => {
  switch (issue.code) {
    case 'invalid_type':
      return { key: issue.input == null ? 'rule.required' : 'rule.invalidType', params: {} };
    case 'too_big':
      if (issue.origin === 'string') return { key: 'rule.tooLong', params: { max: Number(issue.maximum) } };
      if (issue.origin === 'array') return { key: 'rule.maxItems', params: { max: Number(issue.maximum) } };
      return { key: 'rule.invalid', params: {} };
    case 'too_small':
      if (issue.origin === 'string') {
        return Number(issue.minimum) <= 1
          ? { key: 'rule.required', params: {} }
          : { key: 'rule.tooShort', params: { min: Number(issue.minimum) } };
      }
      if (issue.origin === 'array') return { key: 'rule.minItems', params: {} };
      return { key: 'rule.invalid', params: {} };
    case 'invalid_format':
      return { key: issue.format === 'email' ? 'rule.email' : 'rule.invalid', params: {} };
    default:
      return { key: 'rule.invalid', params: {} };
  }
};

/** The rule an issue broke: the contract's `rule.*` message when it carries one, else by issue code. */
export const ruleOf = (issue: Issue): Rule => {
  const { key, params } = parseRuleMessage(issue.message);
  // Contracts use `rule.required` as the type error of text fields; a present value of the wrong
  // type (a number where text belongs) deserves the clearer rule.
  if (key === 'rule.required' && issue.code === 'invalid_type' && issue.input != null) {
    return { key: 'rule.invalidType', params: {} };
  }
  if (key.startsWith('rule.') && isKey(key)) return { key, params };
  return ruleFromCode(issue);
};

/** Label key of a path: the named field nearest to the top level, before any list index. */
export const fieldLabel = (path: readonly PropertyKey[]): SharedMessageKey => {
  let label: SharedMessageKey = 'field.request';
  for (const segment of path) {
    if (typeof segment !== 'string') break;
    const key = `field.${segment}`;
    if (isKey(key)) label = key;
  }
  return label;
};

/** Localized field errors, one per field (the first rule it broke). */
export const fieldErrors = (issues: readonly Issue[], lang: Language): FieldError[] => {
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  for (const issue of issues) {
    const field = issue.path.map(String).join('.') || 'request';
    if (seen.has(field)) continue;
    seen.add(field);
    const { key, params } = ruleOf(issue);
    errors.push({ field, rule: key, message: translate(lang, key, params) });
  }
  return errors;
};

/** `msg` of a validation failure: "<Field label>: <rule text>" of the first error. */
export const validationMessage = (error: FieldError, lang: Language): string => {
  const path = error.field.split('.').map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  return translate(lang, 'api.validation', {
    field: translate(lang, fieldLabel(path)),
    rule: error.message,
  });
};

/**
 * Issues for text containing U+0000 anywhere in a request's input (nested values included).
 * PostgreSQL cannot store it in text and its driver throws (HTTP 500 on 25 endpoints, CSV exports
 * cut mid-stream); SQLite would keep it and hand it on. Refused here, before any schema, so every
 * string field of every endpoint is covered on both databases.
 */
export const nulCharIssues = (value: unknown, path: PropertyKey[] = []): z.core.$ZodIssue[] => {
  if (typeof value === 'string') {
    return value.includes('\u0000')
      ? [{ code: 'custom', path, message: rule('rule.nulChar'), input: value } as z.core.$ZodIssue]
      : [];
  }
  if (Array.isArray(value)) return value.flatMap((item, i) => nulCharIssues(item, [...path, i]));
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([k, item]) => nulCharIssues(item, [...path, k]));
  return [];
};
