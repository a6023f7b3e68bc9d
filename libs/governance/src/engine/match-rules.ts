/** First-match-wins rule selection. Dimensions are tested cheapest-first and short-circuit. */
import { type CompiledPolicy, type CompiledRule } from './compiled-policy.js';
import { type ToolAnnotations, annotationsMatch } from './annotations.js';
import { matchInputConditions, matchMetadataConditions } from './conditions.js';

export interface MatchContext {
  readonly toolName: string;
  readonly args: unknown;
  readonly annotations: ToolAnnotations;
  readonly environment: string | undefined;
  /** Adapter metadata, matched together with the virtual `agent_id` (conditions.ts). */
  readonly metadata: Readonly<Record<string, unknown>> | null | undefined;
  readonly agentId: string | null | undefined;
}

export function ruleMatches(rule: CompiledRule, context: MatchContext): boolean {
  if (rule.tool !== undefined && !rule.tool(context.toolName)) return false;
  if (rule.annotations !== undefined && !annotationsMatch(rule.annotations, context.annotations))
    return false;
  if (!matchInputConditions(rule.input, context.args)) return false;
  if (rule.environment !== undefined && rule.environment !== context.environment) return false;
  return matchMetadataConditions(rule.metadata, context.metadata, context.agentId);
}

export function firstMatchingRule(policy: CompiledPolicy, context: MatchContext): CompiledRule | undefined {
  for (const rule of policy.rules) {
    if (ruleMatches(rule, context)) return rule;
  }
  return undefined;
}

export function ruleLabel(rule: { readonly name: string | undefined; readonly index: number }): string {
  return rule.name === undefined ? `rule[${rule.index}]` : `"${rule.name}"`;
}
