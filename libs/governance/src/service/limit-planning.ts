/**
 * Pure planning of what a call would charge: the matched rule's rate/spend bucket and every budget
 * it feeds. Bucket keys: rule limits `<tool:name | session:id | sender:id>:rule:<index>` (two rules
 * never share a bucket), budgets `budget:<name>:<global | session:id | sender:id>`.
 */
import {
  type CompiledBudget,
  type CompiledPolicy,
  type CompiledRule,
  type RuleLimit,
} from '../engine/compiled-policy.js';
import { matchInputConditions } from '../engine/conditions.js';
import { resolveDotPath } from '../engine/dot-path.js';
import { bucketIdOf } from '../stores/limit-arithmetic.js';
import { type PlannedCharge } from '../stores/planned-charge.js';
import { toMicroUnits } from '../util/money.js';

export interface CallIdentity {
  readonly toolName: string;
  readonly args: unknown;
  readonly sessionId: string | undefined;
  readonly senderId: string | undefined;
}

export type RuleLimitPlan =
  | { readonly type: 'None' }
  | { readonly type: 'InvalidAmount'; readonly limit: Extract<RuleLimit, { type: 'spend' }> }
  | {
      readonly type: 'Check';
      readonly limit: RuleLimit;
      readonly charge: PlannedCharge;
      readonly sessionless: boolean;
    };

export interface BudgetPlan {
  readonly budget: CompiledBudget;
  /** Undefined when the contributor's amount could not be read (fails closed). */
  readonly amount: bigint | undefined;
  /** For an invalid amount this check carries amount 0: it only reads the pot for the report. */
  readonly charge: PlannedCharge;
  readonly sessionless: boolean;
}

export function ruleBaseKey(key: RuleLimit['key'], call: CallIdentity): string {
  switch (key) {
    case 'session':
      return `session:${call.sessionId ?? 'unknown'}`;
    case 'sender_id':
      return `sender:${call.senderId ?? 'unknown'}`;
    case 'tool':
    case 'agent':
      return `tool:${call.toolName}`;
  }
}

const NO_RULE_LIMIT: RuleLimitPlan = Object.freeze({ type: 'None' });

export function planRuleLimit(rule: CompiledRule | undefined, call: CallIdentity): RuleLimitPlan {
  const limit = rule?.limit;
  if (rule === undefined || limit === undefined) return NO_RULE_LIMIT;
  const key = `${ruleBaseKey(limit.key, call)}:rule:${rule.index}`;
  const sessionless = limit.key === 'session' && call.sessionId === undefined;
  const senderScoped = limit.key === 'sender_id';
  // Object literals, not a spread of a shared base: V8 builds `{ ...base, more }` on a slow path
  // (microseconds per call on Node 20), and this runs for every metered call.
  if (limit.type === 'rate') {
    return {
      type: 'Check',
      limit,
      sessionless,
      charge: {
        id: bucketIdOf('rate', 0, key),
        key,
        epoch: 0,
        onBreach: 'refuse',
        senderScoped,
        breached: false,
        family: 'rate',
        role: 'rate',
        amount: 1n,
        limit: BigInt(limit.maxCalls),
        window: { type: 'sliding', ms: limit.windowMs },
        budgetName: undefined,
        currency: undefined,
      },
    };
  }
  const amount = toMicroUnits(resolveDotPath(call.args ?? {}, limit.field));
  if (amount === undefined) return { type: 'InvalidAmount', limit };
  return {
    type: 'Check',
    limit,
    sessionless,
    charge: {
      id: bucketIdOf('spend', 0, key),
      key,
      epoch: 0,
      onBreach: 'refuse',
      senderScoped,
      breached: false,
      family: 'spend',
      role: 'spend',
      amount,
      limit: limit.limit,
      window: { type: 'sliding', ms: limit.windowMs },
      budgetName: undefined,
      currency: limit.currency,
    },
  };
}

/** Every budget the call feeds, through the FIRST contributor (config order) that matches. */
export function planBudgets(
  policy: CompiledPolicy,
  call: CallIdentity,
  epochs: ReadonlyMap<string, number>,
): readonly BudgetPlan[] {
  const plans: BudgetPlan[] = [];
  for (const budget of policy.budgets) {
    const contributor = budget.contributors.find(
      (candidate) => candidate.tool(call.toolName) && matchInputConditions(candidate.input, call.args),
    );
    if (contributor === undefined) continue;
    const amount = toMicroUnits(resolveDotPath(call.args ?? {}, contributor.field));
    const key = budgetKey(budget, call);
    const epoch = epochs.get(budget.name) ?? 1;
    plans.push({
      budget,
      amount,
      sessionless: budget.key === 'session' && call.sessionId === undefined,
      charge: {
        id: bucketIdOf('budget', epoch, key),
        family: 'budget',
        role: 'budget',
        key,
        epoch,
        amount: amount ?? 0n,
        limit: budget.limit,
        window: budget.window,
        onBreach: budget.onExceed === 'require_approval' ? 'hold' : 'refuse',
        senderScoped: budget.key === 'sender_id',
        budgetName: budget.name,
        currency: budget.currency,
        breached: false,
      },
    });
  }
  return plans;
}

/** `budget:<name>:…`: stores find a pot's ledger rows by the name in it (ledgerNamesPot). */
function budgetKey(budget: CompiledBudget, call: CallIdentity): string {
  switch (budget.key) {
    case 'global':
      return `budget:${budget.name}:global`;
    case 'session':
      return `budget:${budget.name}:session:${call.sessionId ?? 'unknown'}`;
    case 'sender_id':
      return `budget:${budget.name}:sender:${call.senderId ?? 'unknown'}`;
  }
}
