import { type Channel, type OutgoingMessage, postHttp } from './channel.js';

const levelColour: Record<number, string> = { 1: 'attention', 2: 'warning', 3: 'accent' };

/**
 * Microsoft Teams incoming webhook (and Workflows' "post to a channel when a webhook request is
 * received"): a message carrying one Adaptive Card, as Microsoft's "Send Adaptive Cards using an
 * Incoming Webhook" documents. Each address is a webhook URL of the user's push form; it is a
 * secret of its own, so error texts never repeat it.
 */
export const teamsChannel = (timeoutMs: number): Channel => ({
  name: 'teams',
  async send(url: string, message: OutgoingMessage) {
    const card = {
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              {
                type: 'TextBlock',
                text: message.subject,
                weight: 'Bolder',
                size: 'Medium',
                wrap: true,
                ...(message.level !== null && { color: levelColour[message.level] ?? 'default' }),
              },
              { type: 'TextBlock', text: message.text.split('\n').join('\n\n'), wrap: true },
            ],
            ...(message.link && {
              actions: [{ type: 'Action.OpenUrl', title: 'FBOX Cloud', url: message.link }],
            }),
          },
        },
      ],
    };
    await postHttp(
      url,
      { timeoutMs, headers: { 'content-type': 'application/json' }, body: JSON.stringify(card) },
      (_status, body) => ({ message: body.slice(0, 200) || 'no description' }),
      url,
    );
  },
});
