/**
 * Evidence and dependency grounding. The engine is synchronous, so the caller reads a snapshot of the
 * session's evidence and tool history first (see EvidenceStore.grounding) and passes it in.
 */
import { type CompiledRule } from './compiled-policy.js';

export interface GroundingSnapshot {
  /** State of each evidence key the policy knows: present (live), expired, or absent from the map. */
  readonly evidence: ReadonlyMap<string, 'present' | 'expired'>;
  /** Tools called in this session: `true` once any call succeeded (success is sticky). */
  readonly toolCalls: ReadonlyMap<string, boolean>;
}

export type GroundingOutcome =
  | { readonly type: 'not_required' }
  | { readonly type: 'unchecked' }
  | { readonly type: 'satisfied' }
  | { readonly type: 'session_required' }
  | {
      readonly type: 'evidence_missing';
      readonly missing: readonly string[];
      readonly expired: readonly string[];
    }
  | { readonly type: 'evidence_expired'; readonly expired: readonly string[] }
  | { readonly type: 'dependency_missing'; readonly tools: readonly string[] };

export function isGrounded(rule: CompiledRule | undefined): rule is CompiledRule {
  return rule !== undefined && (rule.evidenceKeys.length > 0 || rule.requiredTools.length > 0);
}

/** Evidence first; dependencies only once the evidence is in order. */
export function checkGrounding(rule: CompiledRule, snapshot: GroundingSnapshot): GroundingOutcome {
  const missing: string[] = [];
  const expired: string[] = [];
  for (const key of rule.evidenceKeys) {
    const state = snapshot.evidence.get(key);
    if (state === 'expired') expired.push(key);
    else if (state !== 'present') missing.push(key);
  }
  if (missing.length > 0) return { type: 'evidence_missing', missing, expired };
  if (expired.length > 0) return { type: 'evidence_expired', expired };
  const tools = rule.requiredTools.filter((tool) => {
    const succeeded = snapshot.toolCalls.get(tool);
    return rule.requiresSuccess ? succeeded !== true : succeeded === undefined;
  });
  if (tools.length > 0) return { type: 'dependency_missing', tools };
  return { type: 'satisfied' };
}

export function groundingReason(outcome: GroundingOutcome): string | undefined {
  switch (outcome.type) {
    case 'evidence_missing':
      return `Missing required evidence: ${outcome.missing.join(', ')}`;
    case 'evidence_expired':
      return `Required evidence expired: ${outcome.expired.join(', ')}`;
    case 'dependency_missing':
      return `Required prior tool calls missing: ${outcome.tools.join(', ')}`;
    case 'session_required':
      return 'This rule requires a session identity (evidence or dependencies are tracked per session); tried: sideband session_id';
    default:
      return undefined;
  }
}
