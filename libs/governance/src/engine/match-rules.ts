/** First-match-wins rule selection. Dimensions are tested cheapest-first and short-circuit. */
import { type CompiledPolicy, type CompiledRule } from './compiled-policy.js';
import { type ToolAnnotations, annotationsMatch } from './annotations.js';
import { evaluateInputConditions, evaluateMetadataConditions, type ConditionOutcome } from './conditions.js';

export interface MatchContext {
  readonly toolName: string;
  readonly args: unknown;
  readonly annotations: ToolAnnotations;
  readonly environment: string | undefined;
  /** Adapter metadata, matched together with the virtual `agent_id` (conditions.ts). */
  readonly metadata: Readonly<Record<string, unknown>> | null | undefined;
  readonly agentId: string | null | undefined;
}

/** Whether the rule matches; unevaluable when only a condition that could not be tested stands in the way. */
export function ruleMatches(rule: CompiledRule, context: MatchContext): ConditionOutcome {
  if (rule.tool !== undefined && !rule.tool(context.toolName)) return false;
  if (rule.annotations !== undefined && !annotationsMatch(rule.annotations, context.annotations))
    return false;
  const input = evaluateInputConditions(rule.input, context.args);
  if (input === false) return false;
  if (rule.environment !== undefined && rule.environment !== context.environment) return false;
  const metadata = evaluateMetadataConditions(rule.metadata, context.metadata, context.agentId);
  if (metadata === false) return false;
  return input === true ? metadata : input;
}

export type RuleSelection =
  | { readonly type: 'Matched'; readonly rule: CompiledRule }
  | { readonly type: 'None' }
  /** A rule before any match might have matched: which one wins cannot be told, so the call is denied. */
  | { readonly type: 'Unevaluable'; readonly rule: CompiledRule; readonly reason: string };

const NO_MATCH: RuleSelection = Object.freeze({ type: 'None' });

export function firstMatchingRule(policy: CompiledPolicy, context: MatchContext): RuleSelection {
  for (const rule of policy.rules) {
    const outcome = ruleMatches(rule, context);
    if (outcome === true) return { type: 'Matched', rule };
    if (outcome !== false) return { type: 'Unevaluable', rule, reason: outcome.unevaluable };
  }
  return NO_MATCH;
}

export function ruleLabel(rule: { readonly name: string | undefined; readonly index: number }): string {
  return rule.name === undefined ? `rule[${rule.index}]` : `"${rule.name}"`;
}
