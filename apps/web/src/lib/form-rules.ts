import { type FieldError, parseRuleMessage } from '@fbox/contracts';
import type { FormInstance } from 'antd';
import type { Rule } from 'antd/es/form';
import type { z } from 'zod';
import { i18n } from './i18n';

/**
 * Rules whose text reads as the end of a sentence about the field ("is required", "must be at least
 * 10"): with a label they become one ("Temperature threshold must be at least 10").
 */
const FRAGMENT_RULES = new Set([
  'rule.required',
  'rule.invalidType',
  'rule.tooLong',
  'rule.tooShort',
  'rule.email',
  'rule.timeZone',
  'rule.avatar',
  'rule.onOff',
  'rule.range',
  'rule.passwordCommon',
  'rule.url',
  'rule.totpCode',
  'rule.electricityHz',
  'rule.alertLevel',
  'rule.channel',
  'rule.json',
  'rule.nulChar',
  'rule.invalid',
  'rule.unknownField',
  'rule.fboxKind',
  'rule.sort',
  'rule.interval',
  'rule.mac',
  'rule.positive',
  'rule.meterNo',
  'rule.controlMode',
  'rule.action',
  'rule.mode',
  'rule.poolAddress',
  'rule.username',
  'rule.accountStatus',
  'rule.authority',
  'rule.operatorRule',
  'rule.httpUrl',
  'rule.setOrClear',
  'rule.number',
  'rule.numberMax',
  'rule.min',
  'rule.rangeDays',
  'rule.nonNegative',
  'rule.readingInFuture',
  'rule.readingBelowPrevious',
  'rule.readingAboveNext',
  'rule.priceInFuture',
]);

/**
 * Localizes a contract rule message (`rule.range {"min":0,"max":10}`); unknown keys read as 'is
 * invalid'. With a field label, fragments become a sentence ("Nickname is required").
 */
export const localizeRule = (message: string, label?: string): string => {
  const parsed = parseRuleMessage(message);
  const key = i18n.exists(parsed.key) ? parsed.key : 'rule.invalid';
  const text = i18n.t(key as 'rule.invalid', parsed.params);
  if (label && FRAGMENT_RULES.has(key))
    return i18n.t('common.form.ruleWithField', { field: label, rule: text });
  return text.charAt(0).toUpperCase() + text.slice(1);
};

export interface SchemaRuleOptions {
  /** The field's label, to say "Nickname is required" rather than "Is required" (issue 12 point 4). */
  label: string;
  /** Skips the check when false (e.g. a row of an unchecked push channel). */
  when?: (value: unknown) => boolean;
}

/** An antd rule that validates with a contract schema, so the form says what the server would say. */
export const schemaRule = (schema: z.ZodType, { label, when }: SchemaRuleOptions): Rule => ({
  validator: async (_rule, value: unknown) => {
    if (when && !when(value)) return;
    const result = schema.safeParse(value ?? '');
    if (!result.success) {
      throw new Error(localizeRule(result.error.issues[0]?.message ?? 'rule.invalid', label));
    }
  },
});

/**
 * An antd rule for one field of a form whose schema checks fields together (a threshold required
 * and in range for the chosen metric): the whole form is validated, the issues of `field` reported.
 * List the fields it reads in the item's `dependencies`, so it runs again when they change.
 */
export const formSchemaRule =
  (schema: z.ZodType, field: string, { label }: SchemaRuleOptions): Rule =>
  ({ getFieldsValue }) => ({
    validator: async () => {
      const result = schema.safeParse(getFieldsValue(true));
      const issue = result.success ? undefined : result.error.issues.find((i) => i.path[0] === field);
      if (issue) throw new Error(localizeRule(issue.message, label));
    },
  });

const isRuleKey = (message: string) => i18n.exists(parseRuleMessage(message).key);

/** The label of a server field (`pushContent.emailList.0` → "Email list"), if the messages name it. */
const fieldLabel = (field: string): string | undefined => {
  const name = field
    .split('.')
    .filter((part) => !/^\d+$/.test(part))
    .at(-1);
  const key = `field.${name}`;
  return name && i18n.exists(key) ? i18n.t(key as 'field.name') : undefined;
};

/**
 * A server field error in the user's language: its rule key if we know it (naming the field, so a
 * toast for a field the form lacks still says which), else the server's text.
 */
export const fieldErrorText = (error: FieldError): string => {
  const label = fieldLabel(error.field);
  if (error.message && isRuleKey(error.message)) return localizeRule(error.message, label);
  if (error.rule && isRuleKey(error.rule)) {
    const text = localizeRule(error.rule, label);
    // A validation error names its rule without the rule's parameters ("at most {{max}} days"):
    // the server's message, in the user's language, says it whole.
    return text.includes('{{') && error.message ? error.message : text;
  }
  return error.message || localizeRule('rule.invalid', label);
};

/** `pushContent.emailList.0` → `['emailList', 0]`: a server field path as an antd name path. */
export const toNamePath = (field: string, prefix?: string): (string | number)[] => {
  const parts = field.split('.');
  if (prefix && parts[0] === prefix) parts.shift();
  return parts.map((part) => (/^\d+$/.test(part) ? Number(part) : part));
};

/**
 * Puts server field errors (code -2) onto the form. Errors for fields the form does not have are
 * returned so the caller can show them elsewhere.
 */
export const applyFieldErrors = (form: FormInstance, errors: FieldError[], prefix?: string): FieldError[] => {
  const known = new Set(
    form.getFieldsError().map((field) => JSON.stringify(field.name.map((p) => String(p)))),
  );
  const unmatched: FieldError[] = [];
  const fields = errors.flatMap((error) => {
    const name = toNamePath(error.field, prefix);
    if (!known.has(JSON.stringify(name.map(String)))) {
      unmatched.push(error);
      return [];
    }
    return [{ name, errors: [fieldErrorText(error)] }];
  });
  form.setFields(fields);
  return unmatched;
};

/** The voltage band rule: minimum below maximum (both known). */
export const voltageOrderOk = (min: unknown, max: unknown): boolean =>
  typeof min !== 'number' || typeof max !== 'number' || min < max;

/**
 * On `voltage_min` and `voltage_max` (each depending on the other): the minimum must stay below the
 * maximum, said on the field as it is typed, before the server answers.
 */
export const voltageOrderRule: Rule = ({ getFieldValue }) => ({
  validator: async () => {
    if (!voltageOrderOk(getFieldValue('voltage_min'), getFieldValue('voltage_max')))
      throw new Error(localizeRule('rule.voltageMinBelowMax'));
  },
});
