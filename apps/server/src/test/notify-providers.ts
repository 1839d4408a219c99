import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type TelemetryMessage, topics } from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';
import type { NotifyConfig } from '../config.js';
import type { CreatedFbox } from '../devices/device.service.js';
import { telemetry } from './mqtt-client.js';

/** Alert push tests (modules/notify): stand-ins for the providers, and the world they notify. */

/** A mail the test SMTP server accepted, with its subject and text decoded. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  text: string;
}

const quotedPrintable = (text: string): string =>
  Buffer.from(
    text
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`), as nodemailer writes a non-ASCII subject. */
const encodedWords = (text: string): string =>
  text
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_m, kind: string, body: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(body, 'base64').toString('utf8')
        : quotedPrintable(body.replace(/_/g, ' ')),
    );

/** Subject and text of a single-part text mail. */
export const decodeMail = (raw: string): { subject: string; text: string } => {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const headers = head.replace(/\r?\n[ \t]+/g, ' ');
  const subject = encodedWords(/^Subject: (.*)$/im.exec(headers)?.[1] ?? '');
  const body = rest.join('\n\n');
  const encoding = /^Content-Transfer-Encoding: (.*)$/im.exec(headers)?.[1]?.trim().toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? quotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body.replace(/\s/g, ''), 'base64').toString('utf8')
        : body;
  return { subject, text: text.replace(/\r\n/g, '\n') };
};

/**
 * A real SMTP server (smtp-server) on a free port that checks the login and keeps what it
 * accepts. `reply` may refuse a message with an SMTP code (451 retry later, 550 refused), or hold it
 * unanswered (`hang`: a send that times out or a process killed mid-send).
 */
export const startSmtp = async (credentials = { user: 'mailer', pass: 'p@ss:word' }) => {
  const mails: ReceivedMail[] = [];
  const state: { reply: (n: number) => 'ok' | 451 | 550 | 'hang'; received: number } = {
    reply: () => 'ok',
    received: 0,
  };
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === credentials.user && auth.password === credentials.pass) {
        callback(null, { user: auth.username });
      } else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const reply = state.reply(++state.received);
        if (reply === 'hang') return;
        if (reply !== 'ok') {
          const error = new Error(reply === 451 ? 'Try again later' : 'Mailbox unavailable') as Error & {
            responseCode: number;
          };
          error.responseCode = reply;
          callback(error);
          return;
        }
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          ...decodeMail(Buffer.concat(chunks).toString('utf8')),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    mails,
    state,
    url: `smtp://${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.pass)}@127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** A request a test HTTP server received. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** What a test HTTP server answers: a status and body, or nothing (`hang`: a timeout). */
export type HttpReply = { status: number; body: unknown } | 'hang';

/** A local HTTP server standing in for a provider; `reply` answers each request in turn. */
export const startHttp = async (reply: (req: ReceivedRequest, n: number) => HttpReply) => {
  const requests: ReceivedRequest[] = [];
  const holder = { reply };
  const hanging: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(received);
      const answer = holder.reply(received, requests.length);
      if (answer === 'hang') {
        hanging.push(res);
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    requests,
    holder,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/** Providers for a test: SMTP, Telegram, Teams webhook and Twilio, each answering success by default. */
export const startProviders = async () => {
  const smtp = await startSmtp();
  const telegram = await startHttp(() => ({ status: 200, body: { ok: true, result: { message_id: 1 } } }));
  const teams = await startHttp(() => ({ status: 200, body: '1' }));
  const sms = await startHttp(() => ({ status: 201, body: { sid: 'SM1', status: 'queued' } }));
  const notify = (overrides: Partial<NotifyConfig> = {}): NotifyConfig => ({
    publicUrl: 'https://console.example',
    smtp: { url: smtp.url, from: 'FBOX Alerts <alerts@fbox.example>' },
    telegram: { apiUrl: telegram.url, token: '123456:SECRET-bot-token' },
    sms: { url: sms.url, accountSid: 'AC0123456789', authToken: 'twilio-secret-token', from: '+15550006666' },
    groupMs: 5_000,
    maxAttempts: 3,
    timeoutMs: 1_000,
    ...overrides,
  });
  return {
    smtp,
    telegram,
    teams,
    sms,
    notify,
    close: async () => {
      await Promise.all([smtp.close(), telegram.close(), teams.close(), sms.close()]);
    },
  };
};

/** Push settings written straight into a user's row, as the push form stores them. */
export const setPush = async (
  app: FastifyInstance,
  userId: number,
  push: {
    levels?: number[];
    email?: string[];
    sms?: string[];
    teams?: string[];
    telegram?: string[];
    smsTimes?: number;
    timeZone?: string;
  },
) => {
  const channel = (values: string[] | undefined) =>
    JSON.stringify({ status: values && values.length > 0 ? 1 : 0, value: values ?? [] });
  const levels = push.levels ?? [1, 2];
  await app.db
    .updateTable('users')
    .set({
      alert_send_level: JSON.stringify({
        1: levels.includes(1) ? 1 : 0,
        2: levels.includes(2) ? 1 : 0,
        3: levels.includes(3) ? 1 : 0,
      }),
      email_send: channel(push.email),
      sms_send: channel(push.sms),
      teams_send: channel(push.teams),
      telegram_send: channel(push.telegram),
      ...(push.smsTimes !== undefined && { sms_times: push.smsTimes }),
      ...(push.timeZone !== undefined && { time_zone: push.timeZone }),
    })
    .where('id', '=', userId)
    .execute();
};

/** Sends telemetry of a box through ingest and waits for the alarm engine. */
export const telemetrySender = (box: CreatedFbox, clock: { ms: number }) => {
  let seq = 0;
  return async (app: FastifyInstance, edit: (msg: TelemetryMessage) => void = () => {}, miners = 2) => {
    const msg = telemetry({ seq: ++seq, ts: clock.ms, miners, tanks: 1 });
    edit(msg);
    await app.ingest.handle(topics.telemetry(box.device_id), Buffer.from(JSON.stringify(msg)));
    await app.alarms.settled();
  };
};

export const temperature = (value: number) => (msg: TelemetryMessage) => {
  msg.box.temperature = value;
};

export const notifications = (app: FastifyInstance) =>
  app.db.selectFrom('notifications').selectAll().orderBy('id').execute();
