import {
  type AlertNotification,
  Code,
  type Language,
  type NotifyChannels,
  type NotifyTestData,
  type PushChannel,
  parseLanguage,
  pushChannels,
  translate,
} from '@fbox/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import type { Clock } from '../../lib/clock.js';
import type { AreaService } from '../area/area.service.js';
import type { AreaCaller, SessionUser } from '../auth/auth.service.js';
import { type Channel, SendError } from './channels/channel.js';
import { addressesOf } from './notify.outbox.js';
import { NotifyRepository } from './notify.repository.js';
import { reasons } from './notify.sender.js';
import { testMessage } from './notify-message.js';

/**
 * What a reader may see of an address: a Teams webhook is a credential (host only); another user's
 * e-mail, phone or chat id is partly hidden.
 */
export const shownAddress = (channel: PushChannel, address: string, own: boolean): string => {
  if (channel === 'teams') {
    try {
      return `https://${new URL(address).host}/…`;
    } catch {
      return '…';
    }
  }
  if (own) return address;
  if (channel === 'email') {
    const [name = '', domain = ''] = address.split('@');
    return `${name.slice(0, 1)}***@${domain}`;
  }
  return `***${address.replace(/\s/g, '').slice(-4)}`;
};

/** The push endpoints: configured channels, a test send, the notifications of an alert. */
export class NotifyService {
  private readonly repo: NotifyRepository;

  constructor(
    db: Kysely<DB>,
    private readonly clock: Clock,
    private readonly areas: AreaService,
    private readonly channels: Partial<Record<PushChannel, Channel>>,
    private readonly publicUrl: string,
  ) {
    this.repo = new NotifyRepository(db);
  }

  /** Which channels the server can send on. */
  configured(): NotifyChannels {
    return Object.fromEntries(pushChannels.map((c) => [c, this.channels[c] !== undefined])) as NotifyChannels;
  }

  /**
   * Sends a test message now to each saved address of the caller's channel (checked or not) and
   * answers each outcome. An SMS takes a credit like any other.
   * @throws ApiError VALIDATION on `channel` when the caller saved no address for it.
   */
  async test(
    user: Pick<SessionUser, 'id'>,
    channelName: PushChannel,
    lang: Language,
  ): Promise<NotifyTestData> {
    const row = await this.repo.user(user.id);
    if (!row) throw new ApiError(Code.NOT_FOUND, 'api.notFound');
    const addresses = addressesOf(row, channelName, false);
    if (addresses.length === 0) {
      throw new ApiError(Code.VALIDATION, 'api.validation', undefined, {
        errors: [{ field: 'channel', rule: 'rule.notifyNoAddress' }],
      });
    }
    const channel = this.channels[channelName];
    const message = testMessage(
      { language: row.language ? parseLanguage(row.language) : lang, timeZone: row.time_zone },
      row.username,
      this.publicUrl,
    );
    const results: NotifyTestData['results'] = [];
    for (const address of addresses) {
      const shown = shownAddress(channelName, address, true);
      if (!channel) {
        results.push({ address: shown, ok: false, error: translate(lang, 'notify.error.notConfigured') });
        continue;
      }
      if (channelName === 'sms' && !(await this.repo.takeSmsCredit(user.id))) {
        results.push({ address: shown, ok: false, error: translate(lang, 'notify.error.noCredit') });
        continue;
      }
      try {
        await channel.send(address, message);
        results.push({ address: shown, ok: true, error: null });
      } catch (error) {
        if (channelName === 'sms') await this.repo.returnSmsCredit(user.id);
        results.push({
          address: shown,
          ok: false,
          error: error instanceof SendError ? error.message : String(error),
        });
      }
    }
    return { results };
  }

  /** Records the console's language as the caller's notification language. */
  async setLanguage(user: Pick<SessionUser, 'id'>, lang: Language): Promise<{ language: Language }> {
    await this.repo.setLanguage(user.id, lang, this.clock());
    return { language: lang };
  }

  /**
   * The notifications of an alert of the mine, for those who see the mine.
   * @throws ApiError NOT_FOUND for a mine out of scope or an alert of another mine.
   */
  async ofAlert(
    user: AreaCaller,
    input: { area_id: number; id: number },
    lang: Language,
  ): Promise<AlertNotification[]> {
    await this.areas.requireAccess(user, input.area_id);
    if (!(await this.repo.alertInArea(input.id, input.area_id)))
      throw new ApiError(Code.NOT_FOUND, 'api.notFound');
    const rows = await this.repo.ofAlert(input.id);
    return rows.map(({ user_id, ...r }) => ({
      ...r,
      address: shownAddress(r.channel, r.address, user_id === user.id),
      created_at: Number(r.created_at),
      sent_at: r.sent_at === null ? null : Number(r.sent_at),
      last_error:
        r.last_error === reasons.noCredit
          ? translate(lang, 'notify.error.noCredit')
          : r.last_error === reasons.notConfigured
            ? translate(lang, 'notify.error.notConfigured')
            : r.last_error,
    }));
  }
}
