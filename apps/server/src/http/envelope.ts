import {
  Code,
  type CodeValue,
  type Envelope,
  type FieldError,
  type Language,
  parseRuleMessage,
  type SharedMessageKey,
  translate,
} from '@fbox/contracts';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../lib/api-error.js';
import { validationMessage } from '../lib/field-errors.js';
import { hasJsonText, jsonBytes } from '../lib/json-text.js';

export const envelopeOf = (
  code: CodeValue,
  msg: string,
  data: unknown = null,
  info = false,
): Envelope<unknown> => (info ? { code, msg, info: msg, data } : { code, msg, data });

/**
 * Sends an envelope as JSON (HTTP 200 unless a transport error says otherwise). Fields of `data`
 * given as JSON text (a list page's rows, see JsonText) are spliced in as they are, into the bytes sent.
 */
export const sendEnvelope = (reply: FastifyReply, body: Envelope<unknown>, status = 200) =>
  reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(hasJsonText(body) ? jsonBytes(body) : body);

type PartialFieldError = Omit<FieldError, 'message'> & { message?: string };

/**
 * The envelope of an `ApiError`. Field errors raised by services carry only a rule key; they are
 * localized here, and a generic validation text becomes "<Field>: <rule>" of the first one.
 */
export const envelopeOfError = (error: ApiError, lang: Language, info: boolean): Envelope<unknown> => {
  let msg = translate(lang, error.messageKey, error.params);
  let data = error.data;
  const errors = (data as { errors?: PartialFieldError[] } | null)?.errors;
  if (Array.isArray(errors)) {
    const localized = errors.map((e) => {
      // A rule with parameters travels as `rule.key {"param":…}` (contracts' `rule()`).
      const { key, params } = parseRuleMessage(e.rule);
      return { ...e, message: e.message ?? translate(lang, key as SharedMessageKey, params) };
    });
    data = { ...(data as object), errors: localized };
    if (error.messageKey === 'api.validation' && localized[0]) msg = validationMessage(localized[0], lang);
  }
  return envelopeOf(error.code, msg, data, info);
};

export const validationError = (errors: FieldError[], lang: Language): Envelope<unknown> =>
  envelopeOf(
    Code.VALIDATION,
    errors[0] ? validationMessage(errors[0], lang) : translate(lang, 'api.badRequest'),
    {
      errors,
    },
  );

export const messageEnvelope = (code: CodeValue, key: SharedMessageKey, lang: Language) =>
  envelopeOf(code, translate(lang, key));

export { ApiError };
