/** Dry-run: the gate's resolution as a pure simulation; it peeks at the counters, never holds. */
import { feedbackFor } from '../feedback.js';
import { planBudgets, planRuleLimit, sessionUnresolvedEngaged } from '../limit-planning.js';
import { type ServiceContext } from '../service-context.js';
import { budgetBlock } from '../wire-blocks.js';
import { type Evaluation, type Simulated } from './evaluation.js';
import { limitsBlock, snapshotAt } from './hold-limits.js';

export async function simulate(context: ServiceContext, { decision, call }: Evaluation): Promise<Simulated> {
  const evidenceSatisfied = !decision.evidenceBlocked;
  const feedback = feedbackFor('dry_run', decision);
  if (decision.action === 'deny') {
    return {
      type: 'Simulated',
      wire: 'dry_run',
      reason: decision.reason,
      feedback,
      limits: undefined,
      dryRun: { would_forward: false, evidence_satisfied: evidenceSatisfied, limits_ok: true },
    };
  }
  const rule = planRuleLimit(decision.matchedRule, call);
  const budgets = planBudgets(context.policy, call, context.budgetEpochs);
  const checks = [...(rule.type === 'Check' ? [rule.charge] : []), ...budgets.map((plan) => plan.charge)];
  const snapshots = checks.length === 0 ? [] : await context.stores.limits.peek(checks, context.clock.now());
  const ruleSnapshot = rule.type === 'Check' ? snapshots[0] : undefined;
  const budgetSnapshots = rule.type === 'Check' ? snapshots.slice(1) : snapshots;
  const ruleOk = rule.type === 'None' || (rule.type === 'Check' && ruleSnapshot?.allowed === true);
  const budgetBlocks = budgets.map((plan, i) =>
    budgetBlock(plan.budget, plan.amount, snapshotAt(budgetSnapshots, i)),
  );
  const budgetsOk = budgetBlocks.every((block) => block.allowed);
  const unresolved = sessionUnresolvedEngaged(context.policy, rule, budgets);
  const limitsOk = ruleOk && budgetsOk && !unresolved;
  const forwards =
    decision.action === 'allow' || decision.action === 'rate_limit' || decision.action === 'spend_limit';
  return {
    type: 'Simulated',
    wire: 'dry_run',
    reason: decision.reason,
    feedback,
    limits: limitsBlock(rule, ruleSnapshot, budgetBlocks),
    dryRun: {
      would_forward: forwards && limitsOk,
      evidence_satisfied: evidenceSatisfied,
      limits_ok: limitsOk,
      ...(unresolved ? { session_unresolved: true as const } : {}),
    },
  };
}
