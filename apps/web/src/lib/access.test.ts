import { type EndpointName, endpoints, type RuleList } from '@fbox/contracts';
import { describe, expect, it } from 'vitest';
import { canCall } from './access';

const all = ['minerControl', 'minerPool', 'tankControl', 'taskControl', 'alertRules'] as const;
const master: RuleList = { role: 'master', rules: [...all], all: [...all] };
const administrator: RuleList = { role: 'administrator', rules: [...all], all: [...all] };
const operator = (...rules: RuleList['rules']): RuleList => ({ role: 'operator', rules, all: [...all] });

describe('canCall', () => {
  it('allows nothing before the rules are known', () => {
    expect(canCall(undefined, 'fboxList')).toBe(false);
    expect(canCall(undefined, 'minerRestart')).toBe(false);
  });

  it('lets masters call everything signed-in users may call', () => {
    const names = Object.keys(endpoints) as EndpointName[];
    const refused = names.filter((n) => endpoints[n].permission !== 'public' && !canCall(master, n));
    expect(refused).toEqual([]);
  });

  it('lets administrators manage devices but not sub-accounts or mines', () => {
    for (const name of [
      'fboxCreate',
      'fboxEdit',
      'fboxDelete',
      'fboxRegenerateMqtt',
      'tankOilSetting',
      'minerDelete',
    ] as const)
      expect(canCall(administrator, name)).toBe(true);
    for (const name of ['subAccountList', 'subAccountCreate', 'areaCreate', 'areaDelete'] as const)
      expect(canCall(administrator, name)).toBe(false);
  });

  it('lets an operator read and run only the device actions its rules allow', () => {
    const op = operator('minerControl');
    expect(canCall(op, 'fboxList')).toBe(true);
    expect(canCall(op, 'ruleList')).toBe(true);
    expect(canCall(op, 'minerRestart')).toBe(true);
    expect(canCall(op, 'minerChangeMode')).toBe(true);
    expect(canCall(op, 'minerChangePool')).toBe(false);
    expect(canCall(op, 'tankControllerSwitch')).toBe(false);
    for (const name of [
      'fboxEdit',
      'fboxDelete',
      'fboxSetting',
      'electricitySetMeter',
      'minerDelete',
      'tankAdd',
    ] as const)
      expect(canCall(op, name)).toBe(false);
    expect(canCall(operator(), 'minerRestart')).toBe(false);
    expect(canCall(operator('minerPool', 'tankControl'), 'minerChangePool')).toBe(true);
    expect(canCall(operator('minerPool', 'tankControl'), 'tankControllerSwitchV2')).toBe(true);
  });
});
