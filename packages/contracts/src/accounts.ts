import { z } from 'zod';
import { AuthoritySchema, OperatorRuleSchema, RuleListSchema } from './access.js';
import { endpoint } from './endpoint.js';
import { listOf } from './envelope.js';
import { limits } from './limits.js';
import {
  EmailSchema,
  IdSchema,
  intInRange,
  MobileSchema,
  PasswordSchema,
  requiredText,
  rule,
} from './rules.js';

/** Sub-accounts (spec §3 Subaccount, §6): `fbox.user` index, create, edit, deleted, getrule, getrealip. */

export const subAccountStatuses = ['enabled', 'disabled'] as const;
export type SubAccountStatus = (typeof subAccountStatuses)[number];

export const subAccountSortFields = [
  'id',
  'username',
  'nickname',
  'mobile',
  'email',
  'status',
  'authority',
  'created_at',
  'last_login_at',
] as const;

/** Most mines one sub-account may manage in one request (a master rarely has more). */
const AREA_IDS_MAX = 500;

/** Empty form fields mean "not given". */
const blankToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

/**
 * A list from JSON (`[1,2]`), JSON text (`"[1,2]"`, as the web's form encoding sends arrays), a
 * comma-separated form field (`"1,2"`) or repeated fields; an empty text is an empty list.
 */
export const listField = (value: unknown): unknown => {
  if (typeof value === 'string') {
    const text = value.trim();
    if (text.startsWith('[')) {
      try {
        return JSON.parse(text);
      } catch {
        return value;
      }
    }
    return text === '' ? [] : text.split(',').map((s) => s.trim());
  }
  if (typeof value === 'number') return [value];
  return value;
};

/** Login name: trimmed, 3–50 letters, digits or `. _ @ -`, unique across all accounts (checked by the service). */
export const UsernameSchema = z
  .string({ error: rule('rule.required') })
  .trim()
  .min(1, { error: rule('rule.required') })
  .min(3, { error: rule('rule.tooShort', { min: 3 }) })
  .max(limits.usernameMax, { error: rule('rule.tooLong', { max: limits.usernameMax }) })
  .regex(/^[A-Za-z0-9_.@-]+$/, { error: rule('rule.username') });

/** `enabled` / `disabled`; also 1 / 0 and booleans. */
export const SubAccountStatusSchema = z.preprocess(
  (value) => {
    if (value === true || value === 1 || value === '1') return 'enabled';
    if (value === false || value === 0 || value === '0') return 'disabled';
    return value;
  },
  z.enum(subAccountStatuses, { error: rule('rule.accountStatus') }),
);

const SubAccountAuthoritySchema = z.enum(AuthoritySchema.options, { error: rule('rule.authority') });

/** The mines a sub-account manages: at least one; each must be one of the master's (else "not found"). */
export const AreaIdsSchema = z.preprocess(
  listField,
  z
    .array(IdSchema, {
      error: (issue) => (issue.input === undefined ? rule('rule.chooseMine') : rule('rule.invalid')),
    })
    .min(1, { error: rule('rule.chooseMine') })
    .max(AREA_IDS_MAX, { error: rule('rule.maxItems', { max: AREA_IDS_MAX }) }),
);

/** An operator's device-action rules (may be none); ignored for administrators. */
export const OperatorRulesSchema = z.preprocess(
  listField,
  z
    .array(z.enum(OperatorRuleSchema.options, { error: rule('rule.operatorRule') }), {
      error: rule('rule.invalid'),
    })
    .max(OperatorRuleSchema.options.length, {
      error: rule('rule.maxItems', { max: OperatorRuleSchema.options.length }),
    }),
);

/** Fields of the create form (spec §3 Subaccount, §5 profile rules). */
export const SubAccountCreateBodySchema = z.object({
  username: UsernameSchema,
  password: PasswordSchema,
  nickname: requiredText(limits.nicknameMax),
  mobile: MobileSchema,
  email: EmailSchema,
  status: SubAccountStatusSchema.default('enabled'),
  authority: SubAccountAuthoritySchema,
  area_ids: AreaIdsSchema,
  rules: OperatorRulesSchema.optional(),
});
export type SubAccountCreateBody = z.infer<typeof SubAccountCreateBodySchema>;

/**
 * Edit: the id and any fields to change; an empty password keeps the old one. The status switch of
 * the list sends `{ id, status }` alone.
 */
export const SubAccountEditBodySchema = z.object({
  id: IdSchema,
  username: UsernameSchema.optional(),
  password: z.preprocess(blankToUndefined, PasswordSchema.optional()),
  nickname: requiredText(limits.nicknameMax).optional(),
  mobile: MobileSchema.optional(),
  email: EmailSchema.optional(),
  status: SubAccountStatusSchema.optional(),
  authority: SubAccountAuthoritySchema.optional(),
  area_ids: AreaIdsSchema.optional(),
  rules: OperatorRulesSchema.optional(),
});
export type SubAccountEditBody = z.infer<typeof SubAccountEditBodySchema>;

export const SubAccountIdBodySchema = z.object({ id: IdSchema });

/** List filters: `keyword` matches username, nickname, phone or email (substring, any case). */
export const SubAccountListQuerySchema = z.object({
  page: intInRange(1, 1_000_000).default(1),
  limit: intInRange(1, 500).default(20),
  keyword: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .max(100, { error: rule('rule.tooLong', { max: 100 }) })
      .optional(),
  ),
  status: z.preprocess(
    blankToUndefined,
    z.enum(subAccountStatuses, { error: rule('rule.accountStatus') }).optional(),
  ),
  authority: z.preprocess(blankToUndefined, SubAccountAuthoritySchema.optional()),
  sort: z.preprocess(
    blankToUndefined,
    z
      .enum(
        [...subAccountSortFields, ...subAccountSortFields.map((f) => `-${f}` as const)] as [
          string,
          ...string[],
        ],
        { error: rule('rule.sort') },
      )
      .optional(),
  ),
});
export type SubAccountListQuery = z.infer<typeof SubAccountListQuerySchema>;

/** A sub-account as the list shows it. Never carries its password hash or TOTP secret. */
export const SubAccountSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  nickname: z.string(),
  /** Country code and number joined by a space. */
  mobile: z.string(),
  email: z.string(),
  last_login_ip: z.string().nullable(),
  created_at: z.number(),
  status: z.enum(subAccountStatuses),
  last_login_at: z.number().nullable(),
  authority: AuthoritySchema,
  areas: z.array(z.object({ id: z.number().int(), area_name: z.string() })),
  /** The operator's rules; empty for administrators (they hold every rule). */
  rules: z.array(OperatorRuleSchema),
});
export type SubAccount = z.infer<typeof SubAccountSchema>;

export const RealIpSchema = z.object({ ip: z.string() });

export const accountEndpoints = {
  subAccountList: endpoint({
    method: 'GET',
    path: '/index/fbox.user/index',
    permission: 'master',
    query: SubAccountListQuerySchema,
    data: listOf(SubAccountSchema),
  }),
  subAccountCreate: endpoint({
    method: 'POST',
    path: '/index/fbox.user/create',
    permission: 'master',
    body: SubAccountCreateBodySchema,
    data: SubAccountSchema,
    mutates: true,
    success: 'api.modified',
    changesAccess: true,
  }),
  subAccountEdit: endpoint({
    method: 'POST',
    path: '/index/fbox.user/edit',
    permission: 'master',
    body: SubAccountEditBodySchema,
    data: SubAccountSchema,
    mutates: true,
    success: 'api.modified',
    changesAccess: true,
  }),
  subAccountDelete: endpoint({
    method: 'POST',
    path: '/index/fbox.user/deleted',
    permission: 'master',
    body: SubAccountIdBodySchema,
    data: z.null(),
    mutates: true,
    success: 'api.modified',
    changesAccess: true,
  }),
  ruleList: endpoint({
    method: 'GET',
    path: '/index/fbox.user/getrule',
    permission: 'user',
    data: RuleListSchema,
  }),
  realIp: endpoint({
    method: 'GET',
    path: '/index/fbox.user/getrealip',
    permission: 'user',
    data: RealIpSchema,
  }),
} as const;
