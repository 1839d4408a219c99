import { describe, expect, it } from 'vitest';
import { hasJsonText, JsonText, jsonBytes, jsonValue } from './json-text.js';

describe('JSON text spliced into JSON', () => {
  it('gives the bytes JSON.stringify gives for the parsed value', () => {
    const items = [{ id: 1, name: 'a "b" 中' }];
    const value = {
      items: new JsonText(JSON.stringify(items)),
      total: 1,
      note: 'x\ny',
      gone: undefined,
      none: null,
    };
    const bytes = jsonBytes(value);
    expect(bytes.toString('utf8')).toBe(JSON.stringify({ items, total: 1, note: 'x\ny', none: null }));
    expect(bytes.length).toBe(Buffer.byteLength(bytes.toString('utf8')));
  });

  it('splices JSON text found in a nested object, and writes empty objects', () => {
    const rows = [{ day: 1, kwh: 2.5 }];
    const envelope = { code: 0, msg: '成功', data: { rows: new JsonText(JSON.stringify(rows)), empty: {} } };
    expect(JSON.parse(jsonBytes(envelope).toString('utf8'))).toEqual({
      code: 0,
      msg: '成功',
      data: { rows, empty: {} },
    });
    expect(jsonBytes({}).toString()).toBe('{}');
  });

  it('makes an array of lists of items, skipping empty lists, without joining them', () => {
    const days = JsonText.array<{ d: number }>(['{"d":1},{"d":2}', '', '{"d":3}', '']);
    expect(days.pieces).toEqual(['[', '{"d":1},{"d":2}', ',', '{"d":3}', ']']);
    expect(jsonValue(days)).toEqual([{ d: 1 }, { d: 2 }, { d: 3 }]);
    expect(jsonValue(JsonText.array(['', '']))).toEqual([]);
    expect(JSON.parse(jsonBytes({ days }).toString())).toEqual({ days: [{ d: 1 }, { d: 2 }, { d: 3 }] });
  });

  it('finds JSON text in own fields of plain objects, at any depth, but not in arrays', () => {
    expect(hasJsonText({ items: new JsonText('[]') })).toBe(true);
    expect(hasJsonText({ items: [] })).toBe(false);
    expect(hasJsonText({ nested: { items: new JsonText('[]') } })).toBe(true);
    expect(hasJsonText({ nested: { items: [] } })).toBe(false);
    expect(hasJsonText([new JsonText('[]')])).toBe(false);
    expect(hasJsonText(null)).toBe(false);
    expect(hasJsonText('[]')).toBe(false);
  });
});
