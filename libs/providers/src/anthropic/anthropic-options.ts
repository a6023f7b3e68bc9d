/**
 * Checks a ModelConfig against a model's catalogue entry once, at creation, and spells what it asks for
 * in the Messages API: the request carries exactly what was asked, or creation throws naming the model,
 * the rejected value and the accepted ones. Nothing is clamped or silently dropped.
 */
import { type ModelConfig, Reasoning, type ReasoningEffort } from '@helios/core';
import { refusal, type Refuse } from '../shared/model-setup.js';
import {
  type AnthropicModelSpec,
  type ReasoningRules,
  UNCATALOGUED_MAX_OUTPUT_TOKENS,
  UNCATALOGUED_RULES,
} from './anthropic-catalogue.js';

/** Budget thinking's token budgets per level (the levels a BUDGET model accepts). */
const THINKING_BUDGETS: Readonly<Record<string, number>> = {
  MINIMAL: 1024,
  LOW: 4096,
  MEDIUM: 10_000,
  HIGH: 32_000,
};
/** Room left for the answer above a thinking budget when the config sets no max_tokens. */
const ANSWER_ROOM_TOKENS = 1024;
const DISPLAYS: Readonly<Record<string, string | undefined>> = {
  HIDDEN: undefined,
  SUMMARY: 'summarized',
  PROGRESS: 'updates',
};
/** The beta that turns on PROGRESS display (`thinking.display = updates`). */
export const PROGRESS_DISPLAY_BETA = 'thinking-display-updates-2026-08-18';

/** The per-request fields fixed by the config, and the betas they need. */
export interface AnthropicRequestOptions {
  readonly fields: Readonly<Record<string, unknown>>;
  readonly betas: readonly string[];
  readonly maxTokens: number;
}

export function anthropicRequestOptions(
  modelId: string,
  spec: AnthropicModelSpec | undefined,
  config: ModelConfig,
): AnthropicRequestOptions {
  const refuse = refusal('anthropic', modelId);
  const rules = spec?.rules ?? UNCATALOGUED_RULES;
  const ceiling = spec?.maxOutputTokens;
  if (config.seed !== undefined) throw refuse('seed', String(config.seed), ['none (no seed parameter)']);
  if (config.apiVersion !== undefined) {
    throw refuse('apiVersion', config.apiVersion, ['none (set the anthropic-version header instead)']);
  }
  if (ceiling !== undefined && config.maxOutputTokens !== undefined && config.maxOutputTokens > ceiling) {
    throw refuse('maxOutputTokens', String(config.maxOutputTokens), [`1..${ceiling}`]);
  }
  checkSampling(refuse, rules, config);
  const fields: Record<string, unknown> = {};
  const betas: string[] = [];
  let maxTokens = config.maxOutputTokens ?? ceiling ?? UNCATALOGUED_MAX_OUTPUT_TOKENS;
  const reasoning = config.reasoning;
  if (reasoning?.type === 'Off') {
    const thinking = offThinking(refuse, rules);
    if (thinking !== undefined) fields['thinking'] = thinking;
  } else if (reasoning?.type === 'Effort') {
    checkEffort(refuse, rules, reasoning);
    if (rules.thinking === 'BUDGET') {
      const budget = THINKING_BUDGETS[reasoning.level] as number;
      if (config.maxOutputTokens === undefined) maxTokens = Math.max(maxTokens, budget + ANSWER_ROOM_TOKENS);
      else if (config.maxOutputTokens <= budget) {
        throw refuse('maxOutputTokens', String(config.maxOutputTokens), [
          `more than the ${reasoning.level} thinking budget of ${budget}`,
        ]);
      }
      fields['thinking'] = { type: 'enabled', budget_tokens: budget };
    } else {
      const display = DISPLAYS[reasoning.display];
      fields['thinking'] = display === undefined ? { type: 'adaptive' } : { type: 'adaptive', display };
      fields['output_config'] = { effort: reasoning.level.toLowerCase() };
      if (display === 'updates') betas.push(PROGRESS_DISPLAY_BETA);
    }
  }
  if (config.temperature !== undefined) fields['temperature'] = config.temperature;
  if (config.topP !== undefined) fields['top_p'] = config.topP;
  if (config.stopSequences !== undefined) fields['stop_sequences'] = config.stopSequences;
  const toolChoice = anthropicToolChoice(refuse, spec, config);
  if (toolChoice !== undefined) fields['tool_choice'] = toolChoice;
  return { fields, betas, maxTokens };
}

function offThinking(refuse: Refuse, rules: ReasoningRules): Record<string, string> | undefined {
  switch (rules.off) {
    case 'REJECTED':
      throw refuse('reasoning', 'Off', acceptedReasoning(rules));
    case 'OMITTED':
      return undefined;
    case 'DISABLED':
      return { type: 'disabled' };
    case 'BETWEEN_TOOLS':
      return { type: 'between_tools' };
  }
}

function checkEffort(refuse: Refuse, rules: ReasoningRules, effort: ReasoningEffort): void {
  if (!rules.levels.includes(effort.level) || !rules.displays.includes(effort.display)) {
    throw refuse('reasoning', Reasoning.describe(effort), acceptedReasoning(rules));
  }
}

function acceptedReasoning(rules: ReasoningRules): string[] {
  const accepted = [`Effort(${rules.levels.join('|')}, ${rules.displays.join('|')})`];
  if (rules.off !== 'REJECTED') accepted.push('Off');
  return accepted;
}

function checkSampling(refuse: Refuse, rules: ReasoningRules, config: ModelConfig): void {
  const { temperature, topP } = config;
  const sampled = temperature !== undefined || topP !== undefined;
  if (!sampled || rules.sampling === 'UNCHECKED') return;
  const value = temperature !== undefined ? `temperature ${temperature}` : `topP ${topP}`;
  if (rules.sampling === 'REJECTED') throw refuse('sampling', value, ['no temperature or topP']);
  if (temperature !== undefined && topP !== undefined) {
    throw refuse('sampling', `temperature ${temperature} with topP ${topP}`, [
      'temperature or topP, not both',
    ]);
  }
  if (rules.sampling === 'ONE_OF_WITHOUT_EFFORT' && config.reasoning?.type === 'Effort') {
    if (temperature !== undefined || (topP !== undefined && topP < 0.95)) {
      throw refuse('sampling with Effort', value, ['topP in [0.95, 1]', 'no temperature']);
    }
  }
}

function anthropicToolChoice(
  refuse: Refuse,
  spec: AnthropicModelSpec | undefined,
  config: ModelConfig,
): Record<string, string> | undefined {
  const choice = config.toolChoice;
  if (choice === undefined) return undefined;
  const forcedAccepted = spec?.forcedToolChoice ?? true;
  const accepted = forcedAccepted ? ['Auto', 'Any', 'None', 'Required(<one tool>)'] : ['Auto', 'None'];
  switch (choice.type) {
    case 'Auto':
      return { type: 'auto' };
    case 'None':
      return { type: 'none' };
    case 'Any':
      if (!forcedAccepted) throw refuse('toolChoice', 'Any', accepted);
      return { type: 'any' };
    case 'Required': {
      const [name] = choice.allowedTools;
      if (!forcedAccepted || choice.allowedTools.length !== 1 || name === undefined) {
        throw refuse('toolChoice', `Required(${choice.allowedTools.join(', ')})`, accepted);
      }
      return { type: 'tool', name };
    }
  }
}
