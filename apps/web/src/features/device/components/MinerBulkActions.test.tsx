import type { RuleList } from '@fbox/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { accessKeys } from '../../../lib/access';
import { MinerBulkActions } from './MinerBulkActions';

const all = ['minerControl', 'minerPool', 'tankControl', 'taskControl'] as const;

/** Renders the bulk buttons for a caller whose rule list is already cached (as the session loader leaves it). */
const renderFor = (rules: RuleList) => {
  const client = new QueryClient();
  client.setQueryData(accessKeys.rules(), rules);
  render(
    <QueryClientProvider client={client}>
      <MinerBulkActions ids={[1]} onStarted={() => undefined} onDeleted={() => undefined} />
    </QueryClientProvider>,
  );
  return ['restart', 'mode-high', 'mode-low', 'pool', 'overclock', 'resave', 'delete'].filter(
    (action) => screen.queryByTestId(`miner-bulk-${action}`) !== null,
  );
};

describe('MinerBulkActions', () => {
  afterEach(cleanup);

  it('shows an operator only the actions its rules allow, never delete', () => {
    expect(renderFor({ role: 'operator', rules: ['minerControl'], all: [...all] })).toEqual([
      'restart',
      'mode-high',
      'mode-low',
      'overclock',
      'resave',
    ]);
  });

  it('shows an operator with the pool rule only the pool change', () => {
    expect(renderFor({ role: 'operator', rules: ['minerPool'], all: [...all] })).toEqual(['pool']);
  });

  it('shows administrators and masters every action', () => {
    const every = ['restart', 'mode-high', 'mode-low', 'pool', 'overclock', 'resave', 'delete'];
    expect(renderFor({ role: 'administrator', rules: [...all], all: [...all] })).toEqual(every);
  });
});
