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
import { type Mutable } from '@helios/core';
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

const NOT_REQUIRED: GroundingOutcome = Object.freeze({ type: 'not_required' });

export function decide(input: DecideInput): PolicyDecision {
  const { policy } = input;
  const sessionId = normaliseSessionId(input.sessionId);
  const baseline = input.baselineAnnotations ?? DEFAULT_ANNOTATIONS;
  const drifted = input.driftChanges !== undefined && input.driftChanges.length > 0;
  const drift: DriftVerdict | undefined = drifted
    ? { mode: policy.onToolDrift, changes: input.driftChanges ?? [] }
    : undefined;
  const selection = selectRule(input, baseline, drift?.mode === 'log');
  if (selection.type === 'Unevaluable') return unevaluableDecision(selection, sessionId, drift, policy);

  const rule = selectedRule(selection);
  // One object, refined step by step: the pipeline allocates nothing else per call.
  const decision: Mutable<PolicyDecision> = {
    action: rule?.action ?? policy.defaultAction,
    originalAction: 'allow',
    reason:
      rule === undefined
        ? `No matching rule; applied default policy: ${policy.defaultAction}`
        : `Matched ${ruleLabel(rule)} → ${rule.action}`,
    matchedRule: rule,
    sessionId,
    flaggedDestructive: false,
    drift,
    grounding: NOT_REQUIRED,
    evidenceBlocked: false,
    sessionBlocked: false,
    isDryRun: false,
  };
  flagDestructive(decision, input, baseline);
  gateDrift(decision, input.toolName);
  decision.originalAction = decision.action;
  ground(decision, input.grounding, policy);
  decision.isDryRun = (decision.originalAction === 'dry_run' || policy.dryRun) && !decision.sessionBlocked;
  return decision;
}

/**
 * First match on the BASELINE annotations; in drift log mode the stricter of that and the match on the
 * current annotations. Unevaluable when either match could not be told.
 */
function selectRule(input: DecideInput, baseline: ToolAnnotations, logMode: boolean): RuleSelection {
  const { policy } = input;
  const context: MatchContext = {
    toolName: input.toolName,
    args: input.args,
    annotations: baseline,
    environment: policy.environment,
    metadata: input.metadata,
    agentId: input.agentId,
  };
  const selected = firstMatchingRule(policy, context);
  if (!logMode || input.currentAnnotations === undefined || selected.type === 'Unevaluable') return selected;
  const current = firstMatchingRule(policy, { ...context, annotations: input.currentAnnotations });
  if (current.type === 'Unevaluable') return current;
  const action = selectedRule(selected)?.action ?? policy.defaultAction;
  const currentAction = selectedRule(current)?.action ?? policy.defaultAction;
  return actionSeverity(currentAction) > actionSeverity(action) ? current : selected;
}

/** flag_destructive: an unmatched destructive tool is flagged, and escalated to approval when configured. */
function flagDestructive(
  decision: Mutable<PolicyDecision>,
  input: DecideInput,
  baseline: ToolAnnotations,
): void {
  const { policy } = input;
  if (decision.matchedRule !== undefined || policy.flagDestructive === undefined) return;
  const logMode = decision.drift?.mode === 'log';
  const destructive =
    baseline.destructiveHint || (logMode && input.currentAnnotations?.destructiveHint === true);
  if (!destructive) return;
  decision.flaggedDestructive = true;
  // Escalation only ever tightens: a default deny stays a deny.
  if (policy.flagDestructive === 'require_approval' && decision.action === 'allow') {
    decision.action = 'require_approval';
    decision.reason = `Destructive tool "${input.toolName}" auto-escalated by flag_destructive policy`;
  }
}

/** on_tool_drift block / require_approval overrides whatever matched. */
function gateDrift(decision: Mutable<PolicyDecision>, toolName: string): void {
  const drift = decision.drift;
  if (drift === undefined || drift.mode === 'log') return;
  decision.matchedRule = undefined;
  decision.action = drift.mode === 'block' ? 'deny' : 'require_approval';
  // The reference's text, word for word: adapters show it to the agent.
  decision.reason = `Tool "${toolName}" definition drifted from baseline (${drift.changes
    .map((change) => change.aspect)
    .join(', ')})`;
}

/** Grounding (session required, evidence missing vs expired, dependencies) of a call not already denied. */
function ground(
  decision: Mutable<PolicyDecision>,
  snapshot: GroundingSnapshot | undefined,
  policy: CompiledPolicy,
): void {
  const rule = decision.matchedRule;
  if (decision.action === 'deny' || !isGrounded(rule)) return;
  if (decision.sessionId === undefined) {
    decision.grounding = { type: 'session_required' };
    decision.sessionBlocked = true;
  } else if (snapshot === undefined) {
    decision.grounding = { type: 'unchecked' };
  } else {
    decision.grounding = checkGrounding(rule, snapshot);
    decision.evidenceBlocked = decision.grounding.type !== 'satisfied';
  }
  const blockedReason = groundingReason(decision.grounding, policy);
  if (blockedReason !== undefined) {
    decision.action = 'deny';
    decision.reason = blockedReason;
  }
}

function selectedRule(selection: RuleSelection): CompiledRule | undefined {
  return selection.type === 'Matched' ? selection.rule : undefined;
}

/**
 * A rule ahead of any match could not be tested (a regex input over the length bound): whether it, a
 * later rule or the default applies cannot be told, so the call is denied whatever the rule's action.
 */
function unevaluableDecision(
  selection: Extract<RuleSelection, { type: 'Unevaluable' }>,
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
    grounding: NOT_REQUIRED,
    evidenceBlocked: false,
    sessionBlocked: false,
    isDryRun: policy.dryRun,
  };
}

/** Missing or whitespace-only ids mean "no identity" (a blank id must never act as a shared session). */
export function normaliseSessionId(sessionId: string | null | undefined): string | undefined {
  return sessionId === null || sessionId === undefined || sessionId.trim() === '' ? undefined : sessionId;
}
