/**
 * The decision engine: one pure, synchronous, deterministic function from a call and a compiled
 * policy (plus snapshots of baseline annotations, drift and grounding read by the caller) to an
 * internal policy decision. Limits and budgets are planned from this result by the caller, which
 * owns the counter stores.
 *
 * Pipeline (reference §1.5): normalise session → metadata view → first match on BASELINE annotations
 * → drift log mode keeps the stricter of baseline/current → flag_destructive → drift gate →
 * grounding (session required, evidence missing vs expired, dependencies) → dry-run.
 */
import { type CompiledPolicy, type CompiledRule, type PolicyAction } from './compiled-policy.js';
import { DEFAULT_ANNOTATIONS, type ToolAnnotations } from './annotations.js';
import { firstMatchingRule, ruleLabel, type MatchContext, type RuleSelection } from './match-rules.js';
import { actionSeverity } from './severity.js';
import {
  checkGrounding,
  groundingReason,
  isGrounded,
  type GroundingOutcome,
  type GroundingSnapshot,
} from './grounding.js';
import { type DriftChange } from '../drift/drift-change.js';

export interface DecideInput {
  readonly policy: CompiledPolicy;
  readonly toolName: string;
  /** Tool arguments as sent (undefined when the call carried none). */
  readonly args: unknown;
  readonly sessionId?: string | null | undefined;
  readonly agentId?: string | null | undefined;
  readonly metadata?: Readonly<Record<string, unknown>> | null | undefined;
  /** Annotations of the first definition seen (rules match these); defaults when none was seen. */
  readonly baselineAnnotations?: ToolAnnotations | undefined;
  /** Annotations of the latest definition; only consulted in drift log mode. */
  readonly currentAnnotations?: ToolAnnotations | undefined;
  /** Non-empty when the latest definition differs from the baseline. */
  readonly driftChanges?: readonly DriftChange[] | undefined;
  /** Evidence/dependency state of the session; undefined when no evidence store is wired. */
  readonly grounding?: GroundingSnapshot | undefined;
}

export interface DriftVerdict {
  readonly mode: 'block' | 'require_approval' | 'log';
  readonly changes: readonly DriftChange[];
}

export interface PolicyDecision {
  /** The action after every pipeline step. */
  readonly action: PolicyAction;
  /** The action after the drift gate, before grounding (dry-run is judged on this). */
  readonly originalAction: PolicyAction;
  readonly reason: string;
  readonly matchedRule: CompiledRule | undefined;
  readonly sessionId: string | undefined;
  readonly flaggedDestructive: boolean;
  readonly drift: DriftVerdict | undefined;
  readonly grounding: GroundingOutcome;
  /** Grounding refused the call (a deny; simulated under dry-run). */
  readonly evidenceBlocked: boolean;
  /** A grounded rule matched a call without session identity: a real deny, even under dry-run. */
  readonly sessionBlocked: boolean;
  readonly isDryRun: boolean;
}

export function decide(input: DecideInput): PolicyDecision {
  const { policy } = input;
  const sessionId = normaliseSessionId(input.sessionId);
  const baseline = input.baselineAnnotations ?? DEFAULT_ANNOTATIONS;
  const context: MatchContext = {
    toolName: input.toolName,
    args: input.args,
    annotations: baseline,
    environment: policy.environment,
    metadata: input.metadata,
    agentId: input.agentId,
  };

  const drifted = input.driftChanges !== undefined && input.driftChanges.length > 0;
  const drift: DriftVerdict | undefined = drifted
    ? { mode: policy.onToolDrift, changes: input.driftChanges ?? [] }
    : undefined;
  const logMode = drift?.mode === 'log';

  const selected = firstMatchingRule(policy, context);
  const current =
    logMode && input.currentAnnotations !== undefined
      ? firstMatchingRule(policy, { ...context, annotations: input.currentAnnotations })
      : undefined;
  const unevaluable = [selected, current].find((selection) => selection?.type === 'unevaluable');
  if (unevaluable?.type === 'unevaluable') return unevaluableDecision(unevaluable, sessionId, drift, policy);

  let rule = selectedRule(selected);
  let action: PolicyAction = rule?.action ?? policy.defaultAction;
  if (current !== undefined) {
    const currentRule = selectedRule(current);
    const currentAction = currentRule?.action ?? policy.defaultAction;
    if (actionSeverity(currentAction) > actionSeverity(action)) {
      rule = currentRule;
      action = currentAction;
    }
  }
  let reason =
    rule === undefined
      ? `No matching rule; applied default policy: ${policy.defaultAction}`
      : `Matched ${ruleLabel(rule)} → ${rule.action}`;

  let flaggedDestructive = false;
  if (rule === undefined && policy.flagDestructive !== undefined) {
    const destructive =
      baseline.destructiveHint || (logMode && input.currentAnnotations?.destructiveHint === true);
    if (destructive) {
      flaggedDestructive = true;
      // Escalation only ever tightens: a default deny stays a deny.
      if (policy.flagDestructive === 'require_approval' && action === 'allow') {
        action = 'require_approval';
        reason = `Unmatched destructive tool "${input.toolName}" requires approval (flag_destructive)`;
      }
    }
  }

  if (drift !== undefined && drift.mode !== 'log') {
    rule = undefined;
    action = drift.mode === 'block' ? 'deny' : 'require_approval';
    reason = `Tool definition drift detected for "${input.toolName}" (${drift.changes
      .map((change) => change.aspect)
      .join(', ')}); on_tool_drift: ${drift.mode}`;
  }

  const originalAction = action;
  let grounding: GroundingOutcome = { type: 'not_required' };
  let sessionBlocked = false;
  let evidenceBlocked = false;
  if (action !== 'deny' && isGrounded(rule)) {
    if (sessionId === undefined) {
      grounding = { type: 'session_required' };
      sessionBlocked = true;
    } else if (input.grounding === undefined) {
      grounding = { type: 'unchecked' };
    } else {
      grounding = checkGrounding(rule, input.grounding);
      evidenceBlocked = grounding.type !== 'satisfied';
    }
    const blockedReason = groundingReason(grounding);
    if (blockedReason !== undefined) {
      action = 'deny';
      reason = blockedReason;
    }
  }

  return {
    action,
    originalAction,
    reason,
    matchedRule: rule,
    sessionId,
    flaggedDestructive,
    drift,
    grounding,
    evidenceBlocked,
    sessionBlocked,
    isDryRun: (originalAction === 'dry_run' || policy.dryRun) && !sessionBlocked,
  };
}

function selectedRule(selection: RuleSelection): CompiledRule | undefined {
  return selection.type === 'matched' ? selection.rule : undefined;
}

/**
 * A rule ahead of any match could not be tested (a regex input over the length bound): whether it, a
 * later rule or the default applies cannot be told, so the call is denied whatever the rule's action.
 */
function unevaluableDecision(
  selection: Extract<RuleSelection, { type: 'unevaluable' }>,
  sessionId: string | undefined,
  drift: DriftVerdict | undefined,
  policy: CompiledPolicy,
): PolicyDecision {
  return {
    action: 'deny',
    originalAction: 'deny',
    reason: `Denied: ${ruleLabel(selection.rule)} cannot be evaluated (${selection.reason})`,
    matchedRule: undefined,
    sessionId,
    flaggedDestructive: false,
    drift,
    grounding: { type: 'not_required' },
    evidenceBlocked: false,
    sessionBlocked: false,
    isDryRun: policy.dryRun,
  };
}

/** Missing or whitespace-only ids mean "no identity" (a blank id must never act as a shared session). */
export function normaliseSessionId(sessionId: string | null | undefined): string | undefined {
  return sessionId === null || sessionId === undefined || sessionId.trim() === '' ? undefined : sessionId;
}
