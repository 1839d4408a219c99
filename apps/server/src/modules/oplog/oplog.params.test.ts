import { describe, expect, it } from 'vitest';
import { isSecretKey, MASK, maskParams, targetOf } from './oplog.params.js';

describe('operation log parameters', () => {
  it.each([
    'password',
    'oldpassword',
    'googleCode',
    'code',
    'api_secret',
    'agent_key',
    'agentKey',
    'apikey',
    'logintoken',
    'mqtt_password',
    'collector1_password',
    'totp_secret',
    'smtpPwd',
  ])('treats %s as a secret', (key) => {
    expect(isSecretKey(key)).toBe(true);
  });

  it.each(['keyword', 'username', 'name', 'area_id', 'ids', 'pool_address', 'worker', 'mode'])(
    'keeps %s',
    (key) => {
      expect(isSecretKey(key)).toBe(false);
    },
  );

  it('masks secrets at any depth and whatever their type, keeping everything else', () => {
    expect(
      maskParams({
        username: 'alice',
        password: 'hunter22',
        googleCode: '',
        pushContent: { telegram: { bot_token: 123, chatId: '42' } },
        rows: [{ api_secret: 's' }, { name: 'x' }],
      }),
    ).toEqual({
      username: 'alice',
      password: MASK,
      googleCode: MASK,
      pushContent: { telegram: { bot_token: MASK, chatId: '42' } },
      rows: [{ api_secret: MASK }, { name: 'x' }],
    });
  });

  it('cuts long lists and texts so a large batch stays small', () => {
    const ids = Array.from({ length: 10_000 }, (_, i) => i + 1);
    const masked = maskParams({ ids, note: 'x'.repeat(2000) }) as { ids: unknown[]; note: string };
    expect(masked.ids).toHaveLength(51);
    expect(masked.ids.at(-1)).toBe('… +9950');
    expect(masked.note.length).toBe(501);
  });

  it('names the target by ids and a name field, never by a secret', () => {
    expect(targetOf({ area_id: 3, id: 7, name: 'Box 1' })).toBe('#7 Box 1');
    expect(targetOf({ area_id: 3, ids: [1, 2, 3] })).toBe('#1,2,3');
    expect(targetOf({ area_name: 'North' })).toBe('North');
    expect(targetOf({ username: 'bob', password: 'x' })).toBe('bob');
    expect(targetOf({ ids: Array.from({ length: 30 }, (_, i) => i) })).toMatch(/^#0,1,.*,19,… \(\+10\)$/);
    expect(targetOf({ oldpassword: 'a', password: 'b' })).toBe('');
  });
});
