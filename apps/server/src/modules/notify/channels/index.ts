import type { PushChannel } from '@fbox/contracts';
import type { NotifyConfig } from '../../../config.js';
import type { Channel } from './channel.js';
import { emailChannel } from './email.js';
import { smsChannel } from './sms.js';
import { teamsChannel } from './teams.js';
import { telegramChannel } from './telegram.js';

/**
 * The channels the server can send on: e-mail, Telegram and SMS need their settings; Teams needs
 * none (each address is a webhook). A channel missing here is "not configured": the outbox writes
 * no rows for it and the push dialog says so.
 */
export const buildChannels = (config: NotifyConfig): Partial<Record<PushChannel, Channel>> => ({
  teams: teamsChannel(config.timeoutMs),
  ...(config.smtp && { email: emailChannel(config.smtp, config.timeoutMs) }),
  ...(config.telegram && { telegram: telegramChannel(config.telegram, config.timeoutMs) }),
  ...(config.sms && { sms: smsChannel(config.sms, config.timeoutMs) }),
});
