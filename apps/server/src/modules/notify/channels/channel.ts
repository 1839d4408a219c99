import type { PushChannel } from '@fbox/contracts';

/** What a channel sends: a subject (e-mail, card title), the text, and the alert's address. */
export interface OutgoingMessage {
  subject: string;
  text: string;
  link: string | null;
  /** 1 critical, 2 major, 3 minor; null for a test (the card's colour). */
  level: number | null;
}

/**
 * A send that did not go out. `retry`: worth trying again later (timeout, HTTP 5xx/429, SMTP 4xx);
 * otherwise permanent (HTTP 4xx, SMTP 5xx, a refused address). `message` never holds a secret.
 */
export class SendError extends Error {
  override name = 'SendError';
  constructor(
    message: string,
    readonly retry: boolean,
    /** The provider asked to wait this long before the next try (Telegram's `retry_after`). */
    readonly retryAfterMs?: number,
  ) {
    super(message.slice(0, 480));
  }
}

/** One push channel. `send` resolves once the provider accepted the message, else throws SendError. */
export interface Channel {
  name: PushChannel;
  send(address: string, message: OutgoingMessage): Promise<void>;
  close?(): void;
}

/**
 * POSTs to a provider and classifies the outcome: 2xx resolves with the response, 429 and 5xx and
 * network errors and timeouts are retried, other statuses are permanent. `secret` is cut out of
 * any error text (a URL holding a token).
 */
export const postHttp = async (
  url: string,
  init: { headers: Record<string, string>; body: string; timeoutMs: number },
  describe: (status: number, body: string) => { message: string; retryAfterMs?: number },
  secret?: string,
): Promise<Response> => {
  const hide = (text: string) => (secret ? text.split(secret).join('***') : text);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: init.headers,
      body: init.body,
      signal: AbortSignal.timeout(init.timeoutMs),
      redirect: 'error',
    });
  } catch (error) {
    const err = error as Error & { cause?: { code?: string; message?: string } };
    const timeout = err.name === 'TimeoutError' || err.name === 'AbortError';
    const why = timeout
      ? `timed out after ${init.timeoutMs / 1000} s`
      : (err.cause?.code ?? err.cause?.message ?? err.message);
    throw new SendError(hide(`request failed: ${why}`), true);
  }
  if (response.ok) return response;
  const text = await response.text().catch(() => '');
  const { message, retryAfterMs } = describe(response.status, text);
  const retry = response.status === 429 || response.status >= 500;
  throw new SendError(hide(`HTTP ${response.status}: ${message}`), retry, retryAfterMs);
};
