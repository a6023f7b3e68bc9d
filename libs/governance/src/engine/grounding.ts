/**
 * Evidence and dependency grounding. The engine is synchronous, so the caller reads a snapshot of the
 * session's evidence and tool history first (see EvidenceStore.grounding) and passes it in.
 */
import { type CompiledPolicy, type CompiledRule } from './compiled-policy.js';

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

/**
 * The deny reason of a grounding outcome that refuses the call (the reference's decision pipeline):
 * missing keys first, then expired ones, in the rule's order.
 */
export function groundingReason(outcome: GroundingOutcome, policy: CompiledPolicy): string | undefined {
  switch (outcome.type) {
    case 'evidence_missing':
      return `Required evidence not satisfied: ${[...outcome.missing, ...outcome.expired].join(', ')}`;
    case 'evidence_expired':
      return `Required evidence not satisfied: ${outcome.expired.join(', ')}`;
    case 'dependency_missing':
      return `Required tool calls not completed: ${outcome.tools.join(', ')}`;
    case 'session_required':
      return (
        `No session identity resolved (tried: ${sessionStrategySummary(policy)}) — rules using ` +
        'evidence.requires or requires need one. See session.identity in helio.yaml.'
      );
    default:
      return undefined;
  }
}

/**
 * The policy's `session.identity` chain as the reference names it in its deny texts and audit records
 * (`header "x-helio-session-id", legacy_header`), though this door reads only the body's session_id.
 */
export function sessionStrategySummary(policy: CompiledPolicy): string {
  return policy.document.session.identity
    .map((entry) => (entry.source === 'header' ? `header "${entry.name}"` : entry.source))
    .join(', ');
}
