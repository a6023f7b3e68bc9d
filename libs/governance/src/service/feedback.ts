/** Feedback blocks: always on blocking decisions; on gating ones only when the rule configures it. */
import { type CompiledPolicy } from '../engine/compiled-policy.js';
import { type PolicyDecision } from '../engine/decide.js';
import { sessionStrategySummary } from '../engine/grounding.js';
import { type FeedbackBlock, type WireDecision } from '../wire/wire-types.js';

/**
 * The rule's feedback, else its decision reason as the message: what every blocking decision carries,
 * rate_limited and spend_limited included (the reference's buildFeedback; an empty suggestion is none).
 */
export function ruleFeedback(decision: PolicyDecision): FeedbackBlock {
  const configured = decision.matchedRule?.feedback;
  const message = configured?.message ?? decision.reason;
  return configured?.suggestion ? { message, suggestion: configured.suggestion } : { message };
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
        // The reference's words: adapters written for it show them (an amount of any size is valid).
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

/** A session-keyed limit or budget engaged without identity: `reason` and feedback (reference's session-gate.ts). */
export function sessionUnresolvedFeedback(
  policy: CompiledPolicy,
): FeedbackBlock & { readonly suggestion: string } {
  return {
    message:
      `No session identity resolved (tried: ${sessionStrategySummary(policy)}) — a session-keyed limit or ` +
      'budget requires one. See session.identity in helio.yaml.',
    suggestion:
      'Send a session_id the identity policy accepts, or set session.on_unresolved: anonymous to restore shared pooling.',
  };
}

function quoteAll(names: readonly string[]): string {
  return names.map((name) => `"${name}"`).join(', ');
}
