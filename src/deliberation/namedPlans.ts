// Named plans: the plans a caller can ask for by name. They are built as plan objects and go through the same
// validation and budget resolution as plans the caller writes.
import type { RequestBudgets } from './budgets';
import { PlanError, resolvePlanObject, type ResolvedPlan, type ResultStrategy } from './plans';
import { HAT_NAMES, type RoleBook } from './roles';
import type { RoutingDecision } from './routing';

export const NAMED_PLANS = ['auto', 'hats', 'parallel-hats', 'direct', 'sequential', 'parallel', 'task'] as const;
export type NamedPlan = (typeof NAMED_PLANS)[number];

export const NAMED_PLAN_DESCRIPTIONS: Readonly<Record<NamedPlan, string>> = {
  auto: 'Thinking hats chosen by the complexity score: single (factual), double (+ synthesis), triple (+ critical) or the full six, in sequence.',
  hats: 'All six hats in sequence, each seeing the ones before; the synthesis hat concludes.',
  'parallel-hats': 'Five hats at once as branches, then the synthesis hat integrates them.',
  direct: 'One call with one role (roles[0], default factual).',
  sequential: 'The given roles in order, each seeing the ones before (default factual, critical, synthesis).',
  parallel:
    'The given roles at once as branches, results labelled (default the five hats); the synthesis hat, if chosen, integrates them afterwards.',
  task: 'One role working in cycles until done or out of budget, then one convergence call (roles[0], default factual).',
};

export interface NamedPlanOptions {
  /** Role names the caller selected with `roles` (hats and custom roles). */
  roles: string[];
  customRoles: string[];
  book: RoleBook;
  budgets: RequestBudgets;
  routing?: RoutingDecision;
  resultStrategy?: ResultStrategy;
}

export function resolveNamedPlan(name: string, options: NamedPlanOptions): ResolvedPlan {
  if (!(NAMED_PLANS as readonly string[]).includes(name)) {
    throw new PlanError(
      'plan',
      `unknown plan "${name}"; expected one of ${NAMED_PLANS.join(', ')}, or a plan object {strategy: "direct"|"sequential"|"parallel"|"task", ...}`,
    );
  }
  const plan = name as NamedPlan;
  const chosen = options.roles;
  const picksOwnRoles = plan === 'auto' || plan === 'hats' || plan === 'parallel-hats';
  const selecting = chosen.filter((role) => !options.customRoles.includes(role) || picksOwnRoles);
  if (picksOwnRoles && selecting.length > 0) {
    throw new PlanError('roles', `plan "${plan}" picks its own hats; send plan "sequential" or "parallel" with roles to choose them`);
  }
  if ((plan === 'direct' || plan === 'task') && chosen.length > 1) {
    throw new PlanError(
      'roles',
      `plan "${plan}" runs one role, got ${chosen.length} (${chosen.join(', ')}); send one, or plan "sequential" or "parallel" for several`,
    );
  }
  const direct = (role: string) => ({ role, strategy: 'direct' as const });
  const withResult = <T extends object>(object: T) =>
    options.resultStrategy ? { ...object, resultStrategy: options.resultStrategy } : object;
  let object: unknown;
  switch (plan) {
    case 'auto':
      object = withResult({
        strategy: 'sequential',
        sequence: (options.routing?.sequence ?? HAT_NAMES).map(direct),
        buildThread: true,
        resultStrategy: 'last',
      });
      break;
    case 'hats':
      object = withResult({ strategy: 'sequential', sequence: HAT_NAMES.map(direct), buildThread: true, resultStrategy: 'last' });
      break;
    case 'parallel-hats':
      object = withResult({
        strategy: 'parallel',
        roles: HAT_NAMES.filter((hat) => hat !== 'synthesis').map(direct),
        synthesis: 'synthesis',
        resultStrategy: 'last',
      });
      break;
    case 'direct':
      object = { strategy: 'direct', role: chosen[0] ?? 'factual' };
      break;
    case 'sequential':
      object = withResult({
        strategy: 'sequential',
        sequence: (chosen.length > 0 ? chosen : ['factual', 'critical', 'synthesis']).map(direct),
        buildThread: true,
      });
      break;
    case 'parallel': {
      // The synthesis hat integrates the others, so it runs after them, with their results, never beside them.
      const roles = chosen.length > 0 ? chosen : [...HAT_NAMES];
      const concurrent = roles.filter((role) => role !== 'synthesis');
      const synthesis = concurrent.length > 0 && concurrent.length < roles.length ? { synthesis: 'synthesis' } : {};
      object = withResult({ strategy: 'parallel', roles: (concurrent.length > 0 ? concurrent : roles).map(direct), ...synthesis });
      break;
    }
    case 'task':
      object = { strategy: 'task', role: chosen[0] ?? 'factual' };
      break;
  }
  const resolved = resolvePlanObject(object, options.book, options.budgets, plan);
  if ((plan === 'direct' || plan === 'task') && options.resultStrategy) resolved.resultStrategy = options.resultStrategy;
  return resolved;
}
