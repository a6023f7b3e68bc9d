/**
 * `session.on_unresolved: deny`: a call without session identity that engages a session-keyed rule
 * limit or budget is denied, in the reference's order. A session-keyed rule limit denies before anything
 * is read (even an unreadable amount); a session-keyed budget only once the rule limit was peeked, so a
 * full rule bucket still answers rate_limited / spend_limited, and the deny carries that peek in `limits`.
 */
import { type CompiledPolicy } from '../../engine/compiled-policy.js';
import { type LimitsBlock } from '../../wire/wire-types.js';
import { sessionUnresolvedFeedback } from '../feedback.js';
import { type BudgetPlan, type CallIdentity, type RuleLimitPlan } from '../limit-planning.js';
import { type ServiceContext } from '../service-context.js';
import { type Blocked, type Evaluation } from './evaluation.js';
import { limitsBlock, ruleLimited, snapshotAt } from './hold-limits.js';

export function ruleSessionUnresolved(
  policy: CompiledPolicy,
  rule: RuleLimitPlan,
  call: CallIdentity,
): boolean {
  if (policy.onUnresolvedSession !== 'deny' || rule.type === 'None') return false;
  return rule.limit.key === 'session' && call.sessionId === undefined;
}

export function budgetsSessionUnresolved(policy: CompiledPolicy, budgets: readonly BudgetPlan[]): boolean {
  return policy.onUnresolvedSession === 'deny' && budgets.some((plan) => plan.sessionless);
}

/** The deny: reason and feedback name the identity chain (the reference's sessionUnresolvedControlMessage). */
export function sessionUnresolved(context: ServiceContext, limits: LimitsBlock | undefined): Blocked {
  const feedback = sessionUnresolvedFeedback(context.policy);
  return {
    type: 'Blocked',
    wire: 'deny',
    reason: feedback.message,
    feedback,
    limits,
    blockReason: 'session_unresolved',
  };
}

/** A session-keyed budget without identity, behind the rule limit: the rule bucket is peeked, never held. */
export async function budgetSessionUnresolved(
  context: ServiceContext,
  evaluation: Evaluation,
  rule: RuleLimitPlan,
): Promise<Blocked> {
  if (rule.type !== 'Check') return sessionUnresolved(context, undefined);
  const snapshot = snapshotAt(await context.stores.limits.peek([rule.charge], evaluation.nowMs), 0);
  if (!snapshot.allowed) return ruleLimited(evaluation, rule, snapshot);
  return sessionUnresolved(context, limitsBlock(rule, snapshot, undefined));
}
