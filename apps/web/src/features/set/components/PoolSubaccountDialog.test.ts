import { describe, expect, it } from 'vitest';
import { secretChanges } from './PoolSubaccountDialog';

const base = { pool: 'F2Pool', subaccount: 'a', coin: 'BTC' };

describe('pool subaccount secrets as the dialog sends them', () => {
  it('sends nothing for an empty secret, so the stored one is kept', () => {
    expect(secretChanges({ ...base, api_key: '', api_secret: '   ' })).toEqual({});
    expect(secretChanges(base)).toEqual({});
  });

  it('sends a typed secret, and only the clear flag when "remove" is ticked', () => {
    expect(secretChanges({ ...base, api_key: ' k1 ', api_secret: 's1' })).toEqual({
      api_key: 'k1',
      api_secret: 's1',
    });
    expect(secretChanges({ ...base, api_key: 'k1', clear_api_key: true })).toEqual({ clear_api_key: true });
  });
});
