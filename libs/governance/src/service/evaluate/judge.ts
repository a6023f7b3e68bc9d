/**
 * Step 4, the limit gate: what the decision becomes once rule limits and budgets have had their say.
 * Deny and dry-run touch no counter; a call that could run has every bucket it would charge held
 * atomically (hold-limits.ts), so concurrent calls cannot both take the last slot.
 */
import { type PolicyDecision } from '../../engine/decide.js';
import { type BlockReason } from '../../stores/audit-record.js';
import { type BreachedBudget } from '../../stores/approval-ticket-store.js';
import { type PlannedCharge } from '../../stores/planned-charge.js';
import { type BudgetBlock } from '../../wire/wire-types.js';
import { feedbackFor, ruleFeedback } from '../feedback.js';
import { planBudgets, planRuleLimit } from '../limit-planning.js';
import { type ServiceContext } from '../service-context.js';
import { invalidSpendBlock } from '../wire-blocks.js';
import { type Blocked, type Evaluation, type Passed, type Verdict } from './evaluation.js';
import { holdCounters } from './hold-limits.js';
import {
  budgetSessionUnresolved,
  budgetsSessionUnresolved,
  ruleSessionUnresolved,
  sessionUnresolved,
} from './session-unresolved.js';
import { simulate } from './simulate.js';

/** Most calls touch no counter: their verdict is synchronous and costs the caller no extra tick. */
export function judge(context: ServiceContext, evaluation: Evaluation): Verdict | Promise<Verdict> {
  const { decision } = evaluation;
  if (decision.isDryRun) return simulate(context, evaluation);
  if (decision.action === 'deny') return denied(decision);
  return gate(context, evaluation);
}

function denied(decision: PolicyDecision): Blocked {
  return {
    type: 'Blocked',
    wire: 'deny',
    reason: decision.reason,
    feedback: ruleFeedback(decision),
    limits: undefined,
    blockReason: denyReason(decision),
  };
}

/** Precise reasons (the MCP door's vocabulary) rather than the reference sideband's blanket policy_denied. */
function denyReason(decision: PolicyDecision): BlockReason {
  switch (decision.grounding.type) {
    case 'session_required':
      return 'session_unresolved';
    case 'evidence_missing':
      return 'evidence_missing';
    case 'evidence_expired':
      return 'evidence_expired';
    case 'dependency_missing':
      return 'dependency_missing';
    default:
      return decision.drift !== undefined && decision.drift.mode === 'block'
        ? 'tool_definition_drift'
        : 'policy_denied';
  }
}

/** The real gate for calls that could execute: rule limit and budgets, held atomically. */
function gate(context: ServiceContext, evaluation: Evaluation): Verdict | Promise<Verdict> {
  const { decision, call } = evaluation;
  const rule = planRuleLimit(decision.matchedRule, call);
  if (ruleSessionUnresolved(context.policy, rule, call)) return sessionUnresolved(context, undefined);
  if (rule.type === 'InvalidAmount') {
    // An unreadable amount keeps the rule's reason and feedback, as any spend_limited does.
    return {
      type: 'Blocked',
      wire: 'spend_limited',
      reason: decision.reason,
      feedback: ruleFeedback(decision),
      limits: { spend: invalidSpendBlock(rule.limit) },
      blockReason: 'spend_limited',
    };
  }
  const budgets = planBudgets(context.policy, call, context.budgetEpochs);
  if (budgetsSessionUnresolved(context.policy, budgets))
    return budgetSessionUnresolved(context, evaluation, rule);
  if (rule.type === 'None' && budgets.length === 0) return unmetered(decision);
  const checks = budgets.map((plan) => plan.charge);
  if (rule.type === 'Check') checks.unshift(rule.charge);
  return holdCounters(context, evaluation, { rule, budgets, checks });
}

const NO_CHARGES: readonly PlannedCharge[] = Object.freeze([]);
const NO_BREACHES: readonly BreachedBudget[] = Object.freeze([]);
const NO_BUDGET_BLOCKS: readonly BudgetBlock[] = Object.freeze([]);

/** No rule limit, no budget: nothing to hold, and no per-call arrays (the hot path). */
function unmetered(decision: PolicyDecision): Passed {
  const wire = decision.action === 'require_approval' ? 'require_approval' : 'allow';
  return {
    type: 'Passed',
    wire,
    reason: decision.reason,
    feedback: feedbackFor(wire, decision),
    limits: undefined,
    reservationId: undefined,
    charges: NO_CHARGES,
    breached: NO_BREACHES,
    budgetBlocks: NO_BUDGET_BLOCKS,
  };
}
