import { alertLevels, type PushChannel, type PushForm, pushChannels, type UserInfo } from '@fbox/contracts';

/** The push dialog's values: the contract's push form, with phone rows as code + number. */
export type PushValues = PushForm;

const sendOf = (user: UserInfo, channel: PushChannel) => user[`${channel}_send`];

/** At least one (empty) row, so a list always shows a field to fill in. */
const rows = <T>(values: T[], empty: T): T[] => (values.length > 0 ? values : [empty]);

/** The user info as the dialog's initial values. */
export const toPushValues = (user: UserInfo): PushValues => ({
  alertLevel: alertLevels.filter((level) => user.alert_send_level[String(level)] === 1),
  checkList: pushChannels.filter((channel) => sendOf(user, channel).status === 1),
  emailList: rows(user.email_send.value, ''),
  mobileList: rows(
    user.sms_send.value.map((mobile) => {
      const [code = '', number = ''] = mobile.split(' ');
      return { code, number };
    }),
    { code: '', number: '' },
  ),
  teamsUrlList: rows(user.teams_send.value, ''),
  telegramList: rows(user.telegram_send.value, ''),
});

/**
 * Trims the rows. Rows keep their positions so server field errors (`pushContent.emailList.2`) land on
 * the right row; empty rows of unchecked channels are dropped by the server (contracts PushFormSchema).
 */
export const toPushContent = (values: PushValues): PushForm => ({
  alertLevel: values.alertLevel ?? [],
  checkList: values.checkList ?? [],
  emailList: (values.emailList ?? []).map((v) => (v ?? '').trim()),
  mobileList: (values.mobileList ?? []).map((row) => ({
    code: (row?.code ?? '').trim(),
    number: (row?.number ?? '').trim(),
  })),
  teamsUrlList: (values.teamsUrlList ?? []).map((v) => (v ?? '').trim()),
  telegramList: (values.telegramList ?? []).map((v) => (v ?? '').trim()),
});
