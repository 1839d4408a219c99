import { z } from 'zod';
import { limits } from './limits.js';
import {
  CountryCodeSchema,
  EmailSchema,
  intInRange,
  MobileSchema,
  numeric,
  OnOffSchema,
  OptionalIdNumberSchema,
  PhoneNumberSchema,
  requiredText,
  rule,
} from './rules.js';
import { TimeZoneSchema } from './time-zones.js';

/** Alert levels a user can choose to be pushed (labels are localized: `alertLevel.<n>`). */
export const alertLevels = [1, 2, 3] as const;
export const pushChannels = ['email', 'sms', 'teams', 'telegram'] as const;
export type PushChannel = (typeof pushChannels)[number];

/** One push channel as the user info returns it: on/off and its addresses. */
export const ChannelSendSchema = z.object({
  status: z.union([z.literal(0), z.literal(1)]),
  value: z.array(z.string()),
});
export type ChannelSend = z.infer<typeof ChannelSendSchema>;

/** User info of spec §3, as `fbox.user/getuserinfo` returns it. */
export const UserInfoSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  nickname: z.string(),
  email: z.string(),
  /** Country code and number joined by a space, or '' when unset. */
  mobile: z.string(),
  time_zone: z.string(),
  headimg: z.number().int(),
  is_masterID: z.union([z.literal(0), z.literal(1)]),
  auto_frequency: z.union([z.literal(0), z.literal(1)]),
  auto_frequency_config: z.object({ min: z.number(), max: z.number() }),
  pool_config: z.object({ status: z.union([z.literal(0), z.literal(1)]) }),
  /** JSON text holding `delay_switch_value` (ms between power-unit batch switches). */
  global_config: z.string(),
  alert_send_level: z.record(z.string(), z.union([z.literal(0), z.literal(1)])),
  alert_send_level_lable: z.record(z.string(), z.string()),
  email_send: ChannelSendSchema,
  sms_send: ChannelSendSchema,
  teams_send: ChannelSendSchema,
  telegram_send: ChannelSendSchema,
  sms_times: z.number().int(),
  /** 1 when Google Authenticator protects the login. */
  google_auth: z.union([z.literal(0), z.literal(1)]),
  roles: z.array(z.string()),
});
export type UserInfo = z.infer<typeof UserInfoSchema>;

export const UserInfoQuerySchema = z.object({
  area_id: OptionalIdNumberSchema,
  id: OptionalIdNumberSchema,
});

/** A phone row of the push form. */
export const PushPhoneSchema = z.object({ code: CountryCodeSchema, number: PhoneNumberSchema });

const httpsUrl = z
  .string({ error: rule('rule.teamsUrl') })
  .trim()
  .min(1, { error: rule('rule.teamsUrl') })
  .max(2000, { error: rule('rule.tooLong', { max: 2000 }) })
  .regex(/^https:\/\/\S+$/i, { error: rule('rule.url') });

const telegramChatId = z
  .string({ error: rule('rule.telegramChatId') })
  .trim()
  .min(1, { error: rule('rule.telegramChatId') })
  .regex(/^(-?\d{1,20}|@[A-Za-z0-9_]{5,32})$/, { error: rule('rule.telegramChatId') });

/**
 * The push form (spec §3, §5). Rows of a channel are validated only when its channel is checked;
 * rows of an unchecked channel are dropped if empty, kept if valid.
 */
export const PushFormSchema = z
  .object({
    alertLevel: z
      .array(numeric(z.number({ error: rule('rule.invalid') }).int({ error: rule('rule.invalid') })), {
        error: rule('rule.invalidType'),
      })
      .max(10),
    checkList: z.array(z.enum(pushChannels, { error: rule('rule.channel') })).max(4),
    emailList: z
      .array(z.string().max(254, { error: rule('rule.tooLong', { max: 254 }) }))
      .max(limits.maxPushEmails, { error: rule('rule.maxItems', { max: limits.maxPushEmails }) }),
    mobileList: z
      .array(z.object({ code: z.string().max(8), number: z.string().max(32) }))
      .max(limits.maxPushPhones, { error: rule('rule.maxItems', { max: limits.maxPushPhones }) }),
    teamsUrlList: z
      .array(z.string().max(2000, { error: rule('rule.tooLong', { max: 2000 }) }))
      .max(limits.maxPushTeams, { error: rule('rule.maxItems', { max: limits.maxPushTeams }) }),
    telegramList: z
      .array(z.string().max(64, { error: rule('rule.tooLong', { max: 64 }) }))
      .max(limits.maxPushTelegram, { error: rule('rule.maxItems', { max: limits.maxPushTelegram }) }),
  })
  .superRefine((form, ctx) => {
    for (const [i, level] of form.alertLevel.entries()) {
      if (!(alertLevels as readonly number[]).includes(level)) {
        ctx.addIssue({ code: 'custom', path: ['alertLevel', i], message: rule('rule.alertLevel') });
      }
    }
    const checked = new Set(form.checkList);
    const check = (list: readonly unknown[], schema: z.ZodType, path: string, on: boolean) => {
      for (const [i, row] of list.entries()) {
        const empty =
          row === '' ||
          (typeof row === 'object' && row !== null && Object.values(row).every((v) => v === ''));
        if (!on && empty) continue;
        const result = schema.safeParse(row);
        if (!result.success) {
          for (const issue of result.error.issues) {
            ctx.addIssue({ code: 'custom', path: [path, i, ...issue.path], message: issue.message });
          }
        }
      }
      if (on && list.length === 0) {
        ctx.addIssue({ code: 'custom', path: [path], message: rule('rule.minItems') });
      }
    };
    check(form.emailList, EmailSchema, 'emailList', checked.has('email'));
    check(form.mobileList, PushPhoneSchema, 'mobileList', checked.has('sms'));
    check(form.teamsUrlList, httpsUrl, 'teamsUrlList', checked.has('teams'));
    check(form.telegramList, telegramChatId, 'telegramList', checked.has('telegram'));
  });
export type PushForm = z.infer<typeof PushFormSchema>;

/** `pushContent` arrives as JSON text from a form post, or as an object in a JSON body. */
const PushContentSchema = z.preprocess((value, ctx) => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: rule('rule.json'), input: value });
    return z.NEVER;
  }
}, PushFormSchema);

/**
 * Base-info write (`fbox.user/setuserinfo`). Either the push form (`pushContent`) or any of the profile
 * and switch fields; each field present is validated, absent ones stay as they are.
 */
export const SetUserInfoBodySchema = z
  .object({
    pushContent: PushContentSchema.optional(),
    nickname: requiredText(limits.nicknameMax).optional(),
    email: EmailSchema.optional(),
    mobile: MobileSchema.optional(),
    time_zone: TimeZoneSchema.optional(),
    headimg: intInRange(limits.avatarMin, limits.avatarMax).optional(),
    auto_frequency: OnOffSchema.optional(),
    pool_config_status: OnOffSchema.optional(),
    min: intInRange(limits.autoFrequencyMin, limits.autoFrequencyMax).optional(),
    max: intInRange(limits.autoFrequencyMin, limits.autoFrequencyMax).optional(),
    delay_switch_value: intInRange(limits.delaySwitchMin, limits.delaySwitchMax).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.min !== undefined && body.max !== undefined && body.min > body.max) {
      ctx.addIssue({ code: 'custom', path: ['min'], message: rule('rule.minNotAboveMax') });
    }
  });
export type SetUserInfoBody = z.infer<typeof SetUserInfoBodySchema>;

/**
 * Row rules of the push form, so the web checks each row as the server will (added for the web's
 * form rules; PushFormSchema applies the same ones).
 */
export const pushRowSchemas = {
  email: EmailSchema,
  phoneCode: CountryCodeSchema,
  phoneNumber: PhoneNumberSchema,
  teamsUrl: httpsUrl,
  telegramChatId,
} as const;
