import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { changeLanguage } from '../../../lib/i18n';
import { useCommandText, useFaultText } from './labels';

describe('device labels', () => {
  it('shows fault codes and commands as words, never as codes', async () => {
    const fault = renderHook(() => useFaultText()).result.current;
    expect(fault('chain')).toBe('Hash board chain');
    expect(fault('fan, temp_high')).toBe('Fan, Overheating');
    // A code no message names (a new firmware's) stays as reported.
    expect(fault('psu_7')).toBe('psu_7');
    const command = renderHook(() => useCommandText()).result.current;
    expect(command({ kind: 'miner.mode', variant: 'low' })).toBe('Power mode: Low');
    expect(command({ kind: 'miner.restart', variant: null })).toBe('Restart');
    expect(command({ kind: 'pdu.outlet', variant: 'off' })).toBe('PDU outlet: Off');
    await changeLanguage('zh');
    try {
      const zhFault = renderHook(() => useFaultText()).result.current;
      const zhCommand = renderHook(() => useCommandText()).result.current;
      expect(zhFault('fan, chain')).toBe('风扇、算力板链路');
      expect(zhCommand({ kind: 'miner.mode', variant: 'high' })).toBe('功率模式：高功率');
    } finally {
      await changeLanguage('en');
    }
  });
});
