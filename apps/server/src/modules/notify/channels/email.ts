import nodemailer from 'nodemailer';
import { type Channel, type OutgoingMessage, SendError } from './channel.js';

/**
 * E-mail over SMTP with nodemailer (`smtp://user:pass@host:port`, `smtps://` for TLS). An SMTP 4xx
 * answer, a refused connection or a timeout is tried again later; a 5xx answer is permanent. The
 * URL's password is never part of an error text (nodemailer's messages name host and reply only).
 */
export const emailChannel = (settings: { url: string; from: string }, timeoutMs: number): Channel => {
  const url = new URL(settings.url);
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
    secure: url.protocol === 'smtps:',
    ...(url.username && {
      auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) },
    }),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  return {
    name: 'email',
    async send(to: string, message: OutgoingMessage) {
      try {
        await transport.sendMail({
          from: settings.from,
          to,
          subject: message.subject,
          text: message.link ? `${message.text}\n\n${message.link}` : message.text,
        });
      } catch (error) {
        const err = error as Error & { responseCode?: number; response?: string; code?: string };
        const code = err.responseCode;
        const text = (err.response ?? err.message).split(url.password || '\u0000').join('***');
        throw new SendError(
          code ? `SMTP ${code}: ${text}` : `SMTP ${err.code ?? 'error'}: ${text}`,
          !(code && code >= 500),
        );
      }
    },
    close: () => transport.close(),
  };
};
