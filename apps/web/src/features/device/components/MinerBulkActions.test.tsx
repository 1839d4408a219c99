import type { RuleList } from '@fbox/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { accessKeys } from '../../../lib/access';
import { MinerBulkActions, MinerRowMenu, useMinerActions } from './MinerBulkActions';

const Toolbar = () => {
  const actions = useMinerActions({ onStarted: () => undefined, onDeleted: () => undefined });
  return (
    <>
      {actions.holder}
      <MinerBulkActions actions={actions} ids={[1]} />
    </>
  );
};

const Row = () => {
  const actions = useMinerActions({ onStarted: () => undefined, onDeleted: () => undefined });
  return (
    <>
      {actions.holder}
      <MinerRowMenu actions={actions} id={7} name="acct.w7" />
    </>
  );
};

const all = ['minerControl', 'minerPool', 'tankControl', 'taskControl', 'alertRules'] as const;

/** Renders the bulk buttons for a caller whose rule list is already cached (as the session loader leaves it). */
const renderFor = (rules: RuleList) => {
  const client = new QueryClient();
  client.setQueryData(accessKeys.rules(), rules);
  render(
    <QueryClientProvider client={client}>
      <Toolbar />
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

  it('acts on one miner from its row menu, naming it in the confirmation', async () => {
    const client = new QueryClient();
    client.setQueryData(accessKeys.rules(), { role: 'administrator', rules: [...all], all: [...all] });
    render(
      <QueryClientProvider client={client}>
        <Row />
      </QueryClientProvider>,
    );
    // Until used, the row shows its button alone; the first click builds the menu open.
    expect(screen.getByTestId('miner-row-actions').className).not.toContain('ant-dropdown-trigger');
    expect(screen.queryByText('Restart')).toBeNull();
    fireEvent.click(screen.getByTestId('miner-row-actions'));
    expect(screen.getByTestId('miner-row-actions').className).toContain('ant-dropdown-trigger');
    fireEvent.click(await screen.findByText('Restart'));
    expect(await screen.findByText('This applies to miner acct.w7.')).toBeTruthy();
    fireEvent.click(screen.getByTestId('miner-row-actions'));
    fireEvent.click(await screen.findByText('Delete'));
    expect(await screen.findByText('Delete miner acct.w7 with its history?')).toBeTruthy();
  });
});
