/** Step 5, the response body: the verdict in the adapter API's words. */
import { type Mutable } from '@helios/core';
import { type EvaluateDecisionBody } from '../../wire/wire-types.js';
import { type Evaluation, type TerminalVerdict, type Passed } from './evaluation.js';

export function toWireBody(
  { decision, evaluationId }: Evaluation,
  verdict: TerminalVerdict | Passed,
): Mutable<EvaluateDecisionBody> {
  const body: Mutable<EvaluateDecisionBody> = {
    evaluation_id: evaluationId,
    decision: verdict.wire,
    reason: verdict.reason,
    matched_rule: decision.matchedRule?.name ?? null,
    matched_rule_index: decision.matchedRule?.index ?? null,
  };
  // Assigned, not spread: four conditional spreads per request were a measurable slow path.
  if (verdict.feedback !== undefined) body.feedback = verdict.feedback;
  if (verdict.limits !== undefined) body.limits = verdict.limits;
  if (verdict.type === 'Simulated') body.dry_run = verdict.dryRun;
  if (decision.drift !== undefined) body.tool_drift = { changes: decision.drift.changes };
  return body;
}
