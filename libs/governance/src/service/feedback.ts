/** Feedback blocks: always on blocking decisions; on gating ones only when the rule configures it. */
import { formatDuration } from '../config/duration.js';
import { type RuleLimit } from '../engine/compiled-policy.js';
import { type PolicyDecision } from '../engine/decide.js';
import { fromMicroUnits } from '../util/money.js';
import { type FeedbackBlock, type WireDecision } from '../wire/wire-types.js';

export function ruleFeedback(decision: PolicyDecision): FeedbackBlock {
  const configured = decision.matchedRule?.feedback;
  const message = configured?.message ?? decision.reason;
  return configured?.suggestion === undefined ? { message } : { message, suggestion: configured.suggestion };
}

/**
 * A rate or spend limit's refusal: the rule's own feedback when it configures one, else what the agent
 * needs to repair the call (which limit, and what to do), not the engine's rule-match text.
 */
export function limitFeedback(
  decision: PolicyDecision,
  limit: RuleLimit,
  invalidAmount: boolean,
): FeedbackBlock {
  if (decision.matchedRule?.feedback !== undefined) return ruleFeedback(decision);
  const window = formatDuration(limit.windowMs);
  if (limit.type === 'rate') {
    return {
      message: `Rate limit reached: at most ${limit.maxCalls} call(s) per ${window}`,
      suggestion: 'Wait until limits.rate.reset_at_ms before calling this tool again.',
    };
  }
  if (invalidAmount) {
    return {
      message: `The spend amount at "${limit.fieldText}" is missing or not a non-negative finite number`,
      suggestion: `Retry with the amount as a number at "${limit.fieldText}".`,
    };
  }
  return {
    message: `Spend limit reached: at most ${fromMicroUnits(limit.limit)} ${limit.currency} per ${window}`,
    suggestion: 'Wait for the window to free up, or reduce the amount.',
  };
}

export function isBlocking(wire: WireDecision): boolean {
  return wire === 'deny' || wire === 'rate_limited' || wire === 'spend_limited' || wire === 'budget_exceeded';
}

/** Rule feedback for a wire decision, or undefined when none applies. */
export function feedbackFor(wire: WireDecision, decision: PolicyDecision): FeedbackBlock | undefined {
  if (isBlocking(wire)) return ruleFeedback(decision);
  const gating = wire === 'require_approval' || wire === 'dry_run';
  // A plain allow rule shadowed by global dry-run never surfaces its feedback.
  if (gating && decision.action !== 'allow' && decision.matchedRule?.feedback !== undefined) {
    return ruleFeedback(decision);
  }
  return undefined;
}

export function budgetDeniedFeedback(invalid: readonly string[], breached: readonly string[]): FeedbackBlock {
  return invalid.length > 0
    ? {
        message: `Budget ${quoteAll(invalid)} could not read a valid spend amount from this call`,
        suggestion: 'Retry with a non-negative finite amount in the expected field.',
      }
    : {
        message: `Budget ${quoteAll(breached)} would be exceeded by this call`,
        suggestion: 'Wait for the window to reset or reduce the amount.',
      };
}

export function budgetApprovalFeedback(breached: readonly string[]): FeedbackBlock {
  return {
    message: `Budget ${quoteAll(breached)} would be exceeded by this call; break-glass approval required`,
    suggestion: 'Await the approval decision, reduce the amount, or wait for the window to reset.',
  };
}

export const SESSION_UNRESOLVED_REASON =
  'Session identity unresolved: this call engages a session-keyed limit or budget and carries no session_id (tried: sideband session_id)';

function quoteAll(names: readonly string[]): string {
  return names.map((name) => `"${name}"`).join(', ');
}
