import { z } from 'zod';
import { AreaIdBodySchema } from './devices.js';
import { endpoint } from './endpoint.js';
import { rule } from './rules.js';
import { type PushChannel, pushChannels } from './user.js';

/**
 * Alert push (issue 13 §5–6): which channels the server can send on, a test send to the caller's own
 * addresses, and the notifications of one alert. Secrets (SMTP password, bot token, SMS credentials)
 * never appear in any of these answers.
 */

/** Per channel: whether the server has its settings (Teams needs none: its addresses are webhooks). */
export const NotifyChannelsSchema = z.object(
  Object.fromEntries(pushChannels.map((c) => [c, z.boolean()])) as Record<PushChannel, z.ZodBoolean>,
);
export type NotifyChannels = z.infer<typeof NotifyChannelsSchema>;

export const NotifyTestBodySchema = z.object({
  channel: z.enum(pushChannels, { error: rule('rule.channel') }),
});
export type NotifyTestBody = z.infer<typeof NotifyTestBodySchema>;

/** The outcome of a test send to one of the caller's saved addresses. */
export const NotifyTestResultSchema = z.object({
  address: z.string(),
  ok: z.boolean(),
  /** Why it failed, as the provider (or our check) said it; null when sent. */
  error: z.string().nullable(),
});
export const NotifyTestDataSchema = z.object({ results: z.array(NotifyTestResultSchema) });
export type NotifyTestData = z.infer<typeof NotifyTestDataSchema>;

export const notificationStatuses = ['pending', 'sent', 'failed'] as const;
export type NotificationStatus = (typeof notificationStatuses)[number];

/** One notification of an alert: a transition sent (or not) on one channel to one address. */
export const AlertNotificationSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['fired', 'recovered']),
  channel: z.enum(pushChannels),
  /** Who it was for (their user name) and where it went (e-mail, phone, chat id, webhook host). */
  recipient: z.string(),
  address: z.string(),
  status: z.enum(notificationStatuses),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  created_at: z.number(),
  sent_at: z.number().nullable(),
});
export type AlertNotification = z.infer<typeof AlertNotificationSchema>;

export const notifyEndpoints = {
  /** Which push channels the server is configured to send on. */
  notifyChannels: endpoint({
    method: 'GET',
    path: '/index/fbox.notify/channels',
    permission: 'user',
    data: NotifyChannelsSchema,
  }),
  /** Sends a test notification now to the caller's saved addresses of one channel. */
  notifyTest: endpoint({
    method: 'POST',
    path: '/index/fbox.notify/test',
    permission: 'user',
    body: NotifyTestBodySchema,
    data: NotifyTestDataSchema,
    mutates: true,
  }),
  /** Records the caller's console language (the request's) as the language of their notifications. */
  notifyLanguage: endpoint({
    method: 'POST',
    path: '/index/fbox.notify/language',
    permission: 'user',
    data: z.object({ language: z.enum(['en', 'zh']) }),
    mutates: true,
  }),
  /** Every notification of an alert of the mine (`id`), newest first. */
  notifyAlert: endpoint({
    method: 'GET',
    path: '/index/fbox.notify/alert',
    permission: 'user',
    query: AreaIdBodySchema,
    data: z.array(AlertNotificationSchema),
  }),
};
