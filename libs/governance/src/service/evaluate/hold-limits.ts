/**
 * The metered part of the gate: every bucket a call would charge (its rule's rate or spend limit, each
 * budget it feeds) is checked and held in one atomic `reserve`, or the call is refused on the first that
 * would overflow. Break-glass budgets hold past their limit and turn the call into require_approval.
 */
import { type BreachedBudget } from '../../stores/approval-ticket-store.js';
import { type BucketCheck, type BucketSnapshot } from '../../stores/limit-store.js';
import { type PlannedCharge } from '../../stores/planned-charge.js';
import { fromMicroUnits } from '../../util/money.js';
import { type BudgetBlock, type LimitsBlock } from '../../wire/wire-types.js';
import { budgetApprovalFeedback, budgetDeniedFeedback, feedbackFor, ruleFeedback } from '../feedback.js';
import { type BudgetPlan, type RuleLimitPlan } from '../limit-planning.js';
import { type ServiceContext } from '../service-context.js';
import { budgetBlock, invalidSpendBlock, rateBlock, spendBlock } from '../wire-blocks.js';
import { type Blocked, type Evaluation, type Passed, type Verdict } from './evaluation.js';

/** What a metered call would charge: its rule's bucket (first in `checks`, when it has one) and budgets. */
export interface MeteredPlan {
  readonly rule: RuleLimitPlan;
  readonly budgets: readonly BudgetPlan[];
  readonly checks: readonly BucketCheck[];
}

export async function holdCounters(
  context: ServiceContext,
  evaluation: Evaluation,
  plan: MeteredPlan,
): Promise<Verdict> {
  const { nowMs, evaluationId } = evaluation;
  const ruleChecks = plan.rule.type === 'Check' ? 1 : 0;
  if (plan.budgets.some((budget) => budget.amount === undefined)) {
    // An unreadable amount fails closed whatever on_exceed says; report the real pots.
    const snapshots = await context.stores.limits.peek(plan.checks, nowMs);
    const ruleSnapshot = ruleChecks > 0 ? snapshotAt(snapshots, 0) : undefined;
    if (ruleSnapshot?.allowed === false) return ruleLimited(evaluation, plan.rule, ruleSnapshot);
    return budgetExceeded(evaluation, plan, ruleSnapshot, snapshots.slice(ruleChecks));
  }
  const outcome = await context.stores.limits.reserve(
    {
      reservationId: evaluationId,
      checks: plan.checks,
      expiresAtMs: nowMs + context.policy.evaluationTtlMs,
      maxSenderKeys: context.limits.maxSenderKeys,
    },
    nowMs,
  );
  if (outcome.type === 'capacity_exhausted') return { type: 'CapacityExhausted' };
  const ruleSnapshot = ruleChecks > 0 ? outcome.snapshots[0] : undefined;
  const budgetSnapshots = outcome.snapshots.slice(ruleChecks);
  if (outcome.type === 'refused') {
    if (ruleSnapshot?.allowed === false) return ruleLimited(evaluation, plan.rule, ruleSnapshot);
    return budgetExceeded(evaluation, plan, ruleSnapshot, budgetSnapshots);
  }
  return pass(evaluation, plan, budgetSnapshots, ruleSnapshot);
}

/** The rule's own reason and feedback (the reference's buildFeedback), beside the bucket that refused. */
export function ruleLimited(
  { decision }: Evaluation,
  rule: RuleLimitPlan,
  snapshot: BucketSnapshot,
): Blocked {
  const rate = rule.type === 'Check' && rule.limit.type === 'rate';
  return {
    type: 'Blocked',
    wire: rate ? 'rate_limited' : 'spend_limited',
    reason: decision.reason,
    feedback: ruleFeedback(decision),
    limits: limitsBlock(rule, snapshot, undefined),
    blockReason: rate ? 'rate_limited' : 'spend_limited',
  };
}

/**
 * The rule's reason stays (the reference overrides only the feedback: a rule that said allow describes
 * the rule, not the budget); limits keep the rule bucket the call passed and every budget it feeds.
 */
function budgetExceeded(
  { decision }: Evaluation,
  { rule, budgets }: MeteredPlan,
  ruleSnapshot: BucketSnapshot | undefined,
  snapshots: readonly BucketSnapshot[],
): Blocked {
  const blocks = wireOrder(
    budgets.map((plan, i) => budgetBlock(plan.budget, plan.amount, snapshotAt(snapshots, i))),
  );
  const invalid = blocks.filter((block) => block.reason === 'invalid_amount').map((block) => block.name);
  const breached = blocks
    .filter((block) => !block.allowed && block.reason === undefined)
    .map((block) => block.name);
  return {
    type: 'Blocked',
    wire: 'budget_exceeded',
    reason: decision.reason,
    feedback: budgetDeniedFeedback(invalid, breached),
    limits: limitsBlock(rule, ruleSnapshot, blocks),
    blockReason: 'budget_exceeded',
  };
}

/** The reference lists the budgets it could peek first, then those whose amount it could not read. */
export function wireOrder(blocks: readonly BudgetBlock[]): readonly BudgetBlock[] {
  if (!blocks.some((block) => block.reason === 'invalid_amount')) return blocks;
  return [
    ...blocks.filter((block) => block.reason === undefined),
    ...blocks.filter((block) => block.reason !== undefined),
  ];
}

/** Everything held: allow, or require_approval when a rule asks or break-glass budgets breached. */
function pass(
  { decision, evaluationId }: Evaluation,
  { rule, budgets }: MeteredPlan,
  budgetSnapshots: readonly BucketSnapshot[],
  ruleSnapshot: BucketSnapshot | undefined,
): Passed {
  const blocks = budgets.map((plan, i) =>
    budgetBlock(plan.budget, plan.amount, snapshotAt(budgetSnapshots, i)),
  );
  const breached: BreachedBudget[] = budgets.flatMap((plan, i) =>
    blocks[i]?.allowed === false
      ? [
          {
            name: plan.budget.name,
            limit: fromMicroUnits(plan.budget.limit),
            spent: fromMicroUnits(snapshotAt(budgetSnapshots, i).used),
            attempted_amount: fromMicroUnits(plan.amount ?? 0n),
            currency: plan.budget.currency,
            window: plan.budget.windowText,
          },
        ]
      : [],
  );
  // Planned unbreached: a copy only for the breached ones (a spread is V8's slow path, per call).
  const charges: PlannedCharge[] = budgets.map((plan, i) =>
    blocks[i]?.allowed === false ? { ...plan.charge, breached: true } : plan.charge,
  );
  if (rule.type === 'Check') charges.unshift(rule.charge);
  const budgetOnlyApproval = breached.length > 0 && decision.action !== 'require_approval';
  const wire = decision.action === 'require_approval' || breached.length > 0 ? 'require_approval' : 'allow';
  return {
    type: 'Passed',
    wire,
    reason: decision.reason,
    feedback: budgetOnlyApproval
      ? budgetApprovalFeedback(breached.map((b) => b.name))
      : feedbackFor(wire, decision),
    limits: limitsBlock(rule, ruleSnapshot, budgets.length > 0 ? blocks : undefined),
    reservationId: evaluationId,
    charges,
    breached,
    budgetBlocks: blocks,
  };
}

export function limitsBlock(
  rule: RuleLimitPlan,
  ruleSnapshot: BucketSnapshot | undefined,
  budgets: readonly BudgetBlock[] | undefined,
): LimitsBlock | undefined {
  const out: { rate?: LimitsBlock['rate']; spend?: LimitsBlock['spend']; budgets?: readonly BudgetBlock[] } =
    {};
  if (rule.type === 'InvalidAmount') out.spend = invalidSpendBlock(rule.limit);
  if (rule.type === 'Check' && ruleSnapshot !== undefined) {
    if (rule.limit.type === 'rate') out.rate = rateBlock(rule.limit, ruleSnapshot);
    else out.spend = spendBlock(rule.limit, rule.charge.amount, ruleSnapshot);
  }
  if (budgets !== undefined && budgets.length > 0) out.budgets = budgets;
  return Object.keys(out).length === 0 ? undefined : out;
}

export function snapshotAt(snapshots: readonly BucketSnapshot[], index: number): BucketSnapshot {
  const snapshot = snapshots[index];
  if (snapshot === undefined) throw new Error(`limit store returned no snapshot for check ${index}`);
  return snapshot;
}
