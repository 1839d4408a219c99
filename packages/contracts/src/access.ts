import { z } from 'zod';

/**
 * Who may do what (spec §6, DESIGN §6). A master account owns its mines. Its sub-accounts see only
 * the mines they manage, with an access authority: an administrator reads and writes like the
 * master within those mines; an operator reads and runs only the device actions its rules allow.
 */
export const authorities = ['administrator', 'operator'] as const;
export const AuthoritySchema = z.enum(authorities);
export type Authority = (typeof authorities)[number];
export type Role = 'master' | Authority;

/**
 * Actions a sub-account may be allowed (its rule list, `fbox.user/getrule`): device control, tasks,
 * and alert rules with their silences. Administrators
 * and masters have all of them; an operator has the ones its master ticked.
 */
export const operatorRules = [
  'minerControl',
  'minerPool',
  'tankControl',
  'taskControl',
  'alertRules',
] as const;
export const OperatorRuleSchema = z.enum(operatorRules);
export type OperatorRule = (typeof operatorRules)[number];

/**
 * Who may call an endpoint:
 * - `public`: no token needed;
 * - `user`: anyone signed in (reads, and one's own account);
 * - `operate:<rule>`: a device action — masters, administrators, and operators holding the rule;
 * - `manage`: configuration writes — masters and administrators;
 * - `master`: master accounts only (sub-accounts, mines, server internals).
 * Area scope (which mine) is checked by the services on top of this.
 */
export type Permission = 'public' | 'user' | 'manage' | 'master' | `operate:${OperatorRule}`;

/** The caller as permission checks see it. */
export interface Caller {
  role: Role;
  /** An operator's rules; ignored for other roles (they hold every rule). */
  rules: readonly OperatorRule[];
}

/** The rules a caller holds: every rule for masters and administrators. */
export const effectiveRules = (caller: Caller): OperatorRule[] =>
  caller.role === 'operator' ? operatorRules.filter((r) => caller.rules.includes(r)) : [...operatorRules];

/** Whether the caller may change configuration (create, edit, delete). */
export const canManage = (caller: Pick<Caller, 'role'>): boolean => caller.role !== 'operator';

/** Whether a signed-in caller may call an endpoint of this permission (area scope aside). */
export const allows = (caller: Caller, permission: Permission): boolean => {
  if (permission === 'public' || permission === 'user') return true;
  if (permission === 'master') return caller.role === 'master';
  if (permission === 'manage') return canManage(caller);
  const rule = permission.slice('operate:'.length) as OperatorRule;
  return effectiveRules(caller).includes(rule);
};

/** The rule list as `getrule` answers it: the caller's role and rules, and every rule there is. */
export const RuleListSchema = z.object({
  role: z.enum(['master', ...authorities]),
  rules: z.array(OperatorRuleSchema),
  all: z.array(OperatorRuleSchema),
});
export type RuleList = z.infer<typeof RuleListSchema>;
