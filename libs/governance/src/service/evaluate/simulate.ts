/**
 * Dry-run: the gate's resolution as a pure simulation; it peeks at the counters, never holds. As in the
 * reference, the matched rule's limit is simulated only for a rate_limit / spend_limit action, budgets
 * whatever the action (a denied call still shows what it would have cost), and a session-keyed limit or
 * budget without identity reports `session_unresolved` instead of a peek.
 */
import { feedbackFor } from '../feedback.js';
import { planBudgets, planRuleLimit, type RuleLimitPlan } from '../limit-planning.js';
import { type ServiceContext } from '../service-context.js';
import { budgetBlock } from '../wire-blocks.js';
import { type Evaluation, type Simulated } from './evaluation.js';
import { limitsBlock, snapshotAt, wireOrder } from './hold-limits.js';
import { budgetsSessionUnresolved, ruleSessionUnresolved } from './session-unresolved.js';

const NO_RULE_LIMIT: RuleLimitPlan = Object.freeze({ type: 'None' });

export async function simulate(context: ServiceContext, { decision, call }: Evaluation): Promise<Simulated> {
  const { policy } = context;
  const limited = decision.action === 'rate_limit' || decision.action === 'spend_limit';
  const planned = limited ? planRuleLimit(decision.matchedRule, call) : NO_RULE_LIMIT;
  const ruleUnresolved = ruleSessionUnresolved(policy, planned, call);
  const rule = ruleUnresolved ? NO_RULE_LIMIT : planned;
  const allBudgets = planBudgets(policy, call, context.budgetEpochs);
  const budgetsUnresolved = budgetsSessionUnresolved(policy, allBudgets);
  const budgets = budgetsUnresolved ? [] : allBudgets;
  const checks = [...(rule.type === 'Check' ? [rule.charge] : []), ...budgets.map((plan) => plan.charge)];
  const snapshots = checks.length === 0 ? [] : await context.stores.limits.peek(checks, context.clock.now());
  const ruleSnapshot = rule.type === 'Check' ? snapshots[0] : undefined;
  const budgetSnapshots = rule.type === 'Check' ? snapshots.slice(1) : snapshots;
  const ruleOk =
    !ruleUnresolved && (rule.type === 'None' || (rule.type === 'Check' && ruleSnapshot?.allowed === true));
  const budgetBlocks = wireOrder(
    budgets.map((plan, i) => budgetBlock(plan.budget, plan.amount, snapshotAt(budgetSnapshots, i))),
  );
  const budgetsOk = !budgetsUnresolved && budgetBlocks.every((block) => block.allowed);
  const limitsOk = ruleOk && budgetsOk;
  const forwards = decision.action === 'allow' || limited;
  return {
    type: 'Simulated',
    wire: 'dry_run',
    reason: decision.reason,
    feedback: feedbackFor('dry_run', decision),
    limits: limitsBlock(rule, ruleSnapshot, budgetBlocks),
    dryRun: {
      would_forward: forwards && limitsOk,
      evidence_satisfied: !decision.evidenceBlocked,
      limits_ok: limitsOk,
      ...(ruleUnresolved || budgetsUnresolved ? { session_unresolved: true as const } : {}),
    },
  };
}
