import { describe, expect, it } from 'vitest';
import { type InboxMessage, inboxText } from './inbox.js';
import { type Language, translate } from './messages.js';

const tr =
  (lang: Language) => (key: Parameters<typeof translate>[1], params?: Record<string, string | number>) =>
    translate(lang, key, params);

const message = (over: Partial<InboxMessage>): InboxMessage => ({
  id: 1,
  kind: 'alert_fired',
  level: 2,
  area_id: 1,
  area_name: 'North',
  alert_id: 5,
  alert_open: true,
  params: {},
  title: 'fallback title',
  content: 'fallback content',
  created_at: 0,
  read_at: null,
  ...over,
});

describe('inboxText', () => {
  it('renders an alert in the language asked, with the reading and its unit', () => {
    const fired = message({
      params: {
        metric: 'fbox_voltage_out_of_range',
        target: 'fbox',
        device: 'B1',
        fbox: 'B1',
        mine: 'North',
        value: 330.04,
      },
    });
    expect(inboxText(fired, tr('en'))).toEqual({
      title: 'Major alert: Phase voltage out of range',
      content: 'FBOX B1, mine North; value 330 V',
    });
    expect(inboxText(fired, tr('zh')).title).toBe(
      `${translate('zh', 'alertLevel.2')}告警：${translate('zh', 'alertMetric.fbox_voltage_out_of_range')}`,
    );
  });

  it('says a recovery with its peak, and a state metric with no reading', () => {
    const recovered = message({
      kind: 'alert_recovered',
      params: {
        metric: 'miner_offline',
        target: 'miner',
        device: 'w1',
        fbox: 'B1',
        mine: 'North',
        value: null,
        peak: null,
      },
    });
    expect(inboxText(recovered, tr('en'))).toEqual({
      title: 'Recovered: Miner offline',
      content: 'Miner w1, FBOX B1, mine North',
    });
  });

  it('keeps the stored texts for what this version cannot name', () => {
    for (const params of [{ metric: 'future_metric', target: 'fbox' }, { command: 'future.kind' }, {}]) {
      for (const kind of ['alert_fired', 'command_failed', 'system'] as const)
        expect(inboxText(message({ kind, params }), tr('en'))).toEqual({
          title: 'fallback title',
          content: 'fallback content',
        });
    }
  });

  it('renders a system message from its shared keys', () => {
    const system = message({
      kind: 'system',
      params: {
        title_key: 'inbox.title.command_failed',
        content_key: 'inbox.content.fboxIn',
        command: 'Export',
        fbox: 'B1',
        mine: 'North',
      },
    });
    expect(inboxText(system, tr('en'))).toEqual({
      title: 'Command failed: Export',
      content: 'FBOX B1, mine North',
    });
  });
});
