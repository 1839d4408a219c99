import { type Channel, type OutgoingMessage, postHttp, SendError } from './channel.js';

/** Twilio's error body: `{code, message, more_info, status}`. */
const describe = (_status: number, body: string) => {
  try {
    const error = JSON.parse(body) as { code?: number; message?: string };
    return { message: `${error.message ?? 'no message'}${error.code ? ` (${error.code})` : ''}` };
  } catch {
    return { message: body.slice(0, 200) || 'no description' };
  }
};

/** `+86 13800000000` (the push form's code and number) → E.164 `+8613800000000`. */
export const e164 = (address: string): string => `+${address.replace(/\D/g, '')}`;

/**
 * SMS through Twilio's Messages API: POST {SMS_URL}/2010-04-01/Accounts/{AccountSid}/Messages.json,
 * form-encoded `To`, `From` (a number, or `MessagingServiceSid` for an MG… sid) and `Body`, HTTP
 * basic auth with the Account SID and Auth Token; 201 Created means queued for delivery.
 */
export const smsChannel = (
  settings: { url: string; accountSid: string; authToken: string; from: string },
  timeoutMs: number,
): Channel => ({
  name: 'sms',
  async send(phone: string, message: OutgoingMessage) {
    const to = e164(phone);
    if (to.length < 8) throw new SendError(`not a phone number: ${phone}`, false);
    const form = new URLSearchParams({ To: to, Body: `${message.subject}\n${message.text}`.slice(0, 1500) });
    if (settings.from.startsWith('MG')) form.set('MessagingServiceSid', settings.from);
    else form.set('From', settings.from);
    const auth = Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64');
    await postHttp(
      `${settings.url}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`,
      {
        timeoutMs,
        headers: { authorization: `Basic ${auth}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      },
      describe,
      settings.authToken,
    );
  },
});
