import { describe, expect, it } from 'vitest';
import { hasJsonText, JsonText, stringifyWithJsonText } from './json-text.js';

describe('JSON text spliced into JSON', () => {
  it('gives what JSON.stringify gives for the parsed value', () => {
    const items = [{ id: 1, name: 'a "b" 中' }];
    const value = {
      items: new JsonText(JSON.stringify(items)),
      total: 1,
      note: 'x\ny',
      gone: undefined,
      none: null,
    };
    const text = stringifyWithJsonText(value);
    expect(JSON.parse(text)).toEqual({ items, total: 1, note: 'x\ny', none: null });
    expect(text).toBe(JSON.stringify({ items, total: 1, note: 'x\ny', none: null }));
  });

  it('finds JSON text only among own fields of a plain object', () => {
    expect(hasJsonText({ items: new JsonText('[]') })).toBe(true);
    expect(hasJsonText({ items: [] })).toBe(false);
    expect(hasJsonText({ nested: { items: new JsonText('[]') } })).toBe(false);
    expect(hasJsonText([new JsonText('[]')])).toBe(false);
    expect(hasJsonText(null)).toBe(false);
    expect(hasJsonText('[]')).toBe(false);
  });
});
