import { type Channel, type OutgoingMessage, postHttp, SendError } from './channel.js';

/** Telegram's answer: `{ok: true, result}` or `{ok: false, error_code, description, parameters?}`. */
interface BotApiResponse {
  ok?: boolean;
  description?: string;
  parameters?: { retry_after?: number };
}

const parse = (text: string): BotApiResponse => {
  try {
    return JSON.parse(text) as BotApiResponse;
  } catch {
    return {};
  }
};

/**
 * Telegram Bot API `sendMessage` (POST {api}/bot{token}/sendMessage, JSON `chat_id`, `text`). The
 * token is part of the URL, so it is cut out of every error text. A 429's `retry_after` (seconds)
 * sets when to try again.
 */
export const telegramChannel = (settings: { apiUrl: string; token: string }, timeoutMs: number): Channel => ({
  name: 'telegram',
  async send(chatId: string, message: OutgoingMessage) {
    const text = [message.subject, '', message.text, ...(message.link ? ['', message.link] : [])].join('\n');
    const response = await postHttp(
      `${settings.apiUrl}/bot${settings.token}/sendMessage`,
      {
        timeoutMs,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          chat_id: chatId,
          text: text.slice(0, 4096),
          link_preview_options: { is_disabled: true },
        }),
      },
      (_status, body) => {
        const answer = parse(body);
        const retryAfter = answer.parameters?.retry_after;
        return {
          message: answer.description ?? (body.slice(0, 200) || 'no description'),
          ...(typeof retryAfter === 'number' && { retryAfterMs: retryAfter * 1000 }),
        };
      },
      settings.token,
    );
    const answer = parse(await response.text());
    if (answer.ok !== true) {
      throw new SendError(`Bot API answered ok=false: ${answer.description ?? 'no description'}`, false);
    }
  },
});
