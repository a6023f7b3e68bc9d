/** Step 3, decision: the session's grounding (when the policy grounds anything), then `decide()`. */
import { decide, type PolicyDecision } from '../../engine/decide.js';
import { type GroundingSnapshot } from '../../engine/grounding.js';
import { diffDefinitions } from '../../drift/diff-definitions.js';
import { type BaselineObservation } from '../../stores/tool-baseline-store.js';
import { type ServiceContext } from '../service-context.js';
import { type EvaluationCall } from './evaluation.js';
import { annotationsOf } from './observe-tool.js';

/** Evidence is read only when the policy grounds anything (no await otherwise). */
export function needsGrounding(context: ServiceContext, sessionId: string | undefined): sessionId is string {
  const grounded = context.policy.evidenceKeys.size > 0 || context.policy.requiredTools.size > 0;
  return context.stores.evidence !== undefined && sessionId !== undefined && grounded;
}

export function decideCall(
  context: ServiceContext,
  call: EvaluationCall,
  observed: Extract<BaselineObservation, { type: 'Observed' }>,
  grounding: GroundingSnapshot | undefined,
): PolicyDecision {
  const { baseline, current } = observed;
  return decide({
    policy: context.policy,
    toolName: call.toolName,
    args: call.args,
    sessionId: call.sessionId,
    agentId: call.agentId,
    metadata: call.metadata,
    baselineAnnotations: baseline && annotationsOf(baseline),
    currentAnnotations: current && annotationsOf(current),
    driftChanges: baseline && current && diffDefinitions(baseline, current),
    grounding,
  });
}
