import {
  alertLevels,
  type ChannelSend,
  type Language,
  type PushChannel,
  type PushForm,
  type SharedMessageKey,
  translate,
  type UserInfo,
} from '@fbox/contracts';
import type { Selectable } from 'kysely';
import type { UsersTable } from '../../db/schema.js';

type UserRow = Selectable<UsersTable>;

const parseJson = <T>(text: string, fallback: T): T => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

const bit = (value: unknown): 0 | 1 => (value === 1 || value === '1' || value === true ? 1 : 0);

const channel = (text: string): ChannelSend => {
  const parsed = parseJson<{ status?: unknown; value?: unknown }>(text, {});
  const value = Array.isArray(parsed.value)
    ? parsed.value.filter((v): v is string => typeof v === 'string')
    : [];
  return { status: bit(parsed.status), value };
};

/** A user row in the shape of `UserInfoSchema`, labels in the caller's language. */
export const toUserInfo = (row: UserRow, lang: Language): UserInfo => {
  const levels = parseJson<Record<string, unknown>>(row.alert_send_level, {});
  const alertSendLevel: Record<string, 0 | 1> = {};
  const labels: Record<string, string> = {};
  for (const level of alertLevels) {
    alertSendLevel[level] = bit(levels[level]);
    labels[level] = translate(lang, `alertLevel.${level}` as SharedMessageKey);
  }
  const config = parseJson<{ delay_switch_value?: unknown }>(row.global_config, {});
  return {
    id: row.id,
    username: row.username,
    nickname: row.nickname,
    email: row.email,
    mobile: row.mobile,
    time_zone: row.time_zone,
    headimg: row.headimg,
    is_masterID: bit(row.is_master),
    auto_frequency: bit(row.auto_frequency),
    auto_frequency_config: { min: row.auto_frequency_min, max: row.auto_frequency_max },
    pool_config: { status: bit(row.pool_locked) },
    global_config: JSON.stringify({ delay_switch_value: Number(config.delay_switch_value ?? 0) }),
    alert_send_level: alertSendLevel,
    alert_send_level_lable: labels,
    email_send: channel(row.email_send),
    sms_send: channel(row.sms_send),
    teams_send: channel(row.teams_send),
    telegram_send: channel(row.telegram_send),
    sms_times: row.sms_times,
    google_auth: row.totp_secret ? 1 : 0,
    // The console's route roles (spec §6): `admin` for a master, whose pages include sub-accounts;
    // a sub-account's authority otherwise.
    roles:
      bit(row.is_master) === 1
        ? ['admin']
        : [row.authority === 'administrator' ? 'administrator' : 'operator'],
  };
};

/** The push form as stored: chosen levels as a 0/1 map, each channel's status and non-empty rows. */
export const pushColumns = (form: PushForm) => {
  const checked = new Set<PushChannel>(form.checkList);
  const send = (name: PushChannel, rows: string[]) =>
    JSON.stringify({ status: checked.has(name) ? 1 : 0, value: rows.map((r) => r.trim()).filter(Boolean) });
  const levels = Object.fromEntries(alertLevels.map((l) => [l, form.alertLevel.includes(l) ? 1 : 0]));
  return {
    alert_send_level: JSON.stringify(levels),
    email_send: send('email', form.emailList),
    sms_send: send(
      'sms',
      form.mobileList.map((m) =>
        m.code.trim() && m.number.trim() ? `${m.code.trim()} ${m.number.trim()}` : '',
      ),
    ),
    teams_send: send('teams', form.teamsUrlList),
    telegram_send: send('telegram', form.telegramList),
  };
};
