/**
 * Checks a ModelConfig against a model's catalogue entry once, at creation, and spells what it asks for
 * in the Responses API: the request carries exactly what was asked, or creation throws naming the
 * model, the rejected value and the accepted ones. Nothing is clamped or silently dropped.
 */
import { type ModelConfig, Reasoning, ReasoningDisplay, type ToolChoice } from '@helios/core';
import { refusal, type Refuse } from '../shared/model-setup.js';
import { OPENAI_RULES, type OpenAiModelSpec, type OpenAiReasoningRules } from './openai-catalogue.js';

/** The request fields fixed by the config (reasoning, sampling, output ceiling, tool choice). */
export interface OpenAiRequestOptions {
  readonly fields: Readonly<Record<string, unknown>>;
  /** Sent only with tools: the Responses API judges a tool_choice without tools an error. */
  readonly toolChoice: string | Readonly<Record<string, unknown>> | undefined;
  /** The ceiling the model reports: config, else catalogue, else undefined (unknown, never 0 sent). */
  readonly maxOutputTokens: number | undefined;
}

export function openAiRequestOptions(
  modelId: string,
  spec: OpenAiModelSpec | undefined,
  config: ModelConfig,
): OpenAiRequestOptions {
  const refuse = refusal('openai', modelId);
  const rules = spec?.rules ?? OPENAI_RULES.UNCATALOGUED;
  const ceiling = spec?.maxOutputTokens;
  if (config.seed !== undefined) throw refuse('seed', String(config.seed), ['none (no seed parameter)']);
  if (config.stopSequences !== undefined) {
    throw refuse('stopSequences', JSON.stringify(config.stopSequences), ['none (no stop parameter)']);
  }
  if (config.apiVersion !== undefined) {
    throw refuse('apiVersion', config.apiVersion, ['none (the version is in the base URL)']);
  }
  if (ceiling !== undefined && config.maxOutputTokens !== undefined && config.maxOutputTokens > ceiling) {
    throw refuse('maxOutputTokens', String(config.maxOutputTokens), [`1..${ceiling}`]);
  }
  checkSampling(refuse, rules, config);
  const fields: Record<string, unknown> = {};
  const reasoning = reasoningField(refuse, rules, config.reasoning);
  if (reasoning !== undefined) fields['reasoning'] = reasoning;
  if (config.temperature !== undefined) fields['temperature'] = config.temperature;
  if (config.topP !== undefined) fields['top_p'] = config.topP;
  const maxOutputTokens = config.maxOutputTokens ?? ceiling;
  if (maxOutputTokens !== undefined) fields['max_output_tokens'] = maxOutputTokens;
  return { fields, toolChoice: openAiToolChoice(config.toolChoice), maxOutputTokens };
}

function reasoningField(
  refuse: Refuse,
  rules: OpenAiReasoningRules,
  reasoning: Reasoning | undefined,
): Record<string, string> | undefined {
  if (reasoning === undefined) return undefined;
  if (reasoning.type === 'Off') {
    if (rules.off === 'REJECTED') throw refuse('reasoning', 'Off', acceptedReasoning(rules));
    return rules.off === 'NONE' ? { effort: 'none' } : undefined;
  }
  if (!rules.levels.includes(reasoning.level) || !rules.displays.includes(reasoning.display)) {
    throw refuse('reasoning', Reasoning.describe(reasoning), acceptedReasoning(rules));
  }
  const effort = reasoning.level.toLowerCase();
  return reasoning.display === ReasoningDisplay.SUMMARY ? { effort, summary: 'auto' } : { effort };
}

function acceptedReasoning(rules: OpenAiReasoningRules): string[] {
  const accepted =
    rules.levels.length === 0 ? [] : [`Effort(${rules.levels.join('|')}, ${rules.displays.join('|')})`];
  if (rules.off !== 'REJECTED') accepted.push('Off');
  return accepted;
}

function checkSampling(refuse: Refuse, rules: OpenAiReasoningRules, config: ModelConfig): void {
  const { temperature, topP, reasoning } = config;
  if (temperature === undefined && topP === undefined) return;
  const value = temperature !== undefined ? `temperature ${temperature}` : `topP ${topP}`;
  switch (rules.sampling) {
    case 'ACCEPTED':
    case 'UNCHECKED':
      return;
    case 'REJECTED':
      throw refuse('sampling', value, ['no temperature or topP']);
    case 'WITH_OFF':
      if (reasoning?.type !== 'Off') {
        throw refuse('sampling', `${value} without reasoning Off`, [
          'temperature or topP with reasoning Off',
        ]);
      }
      return;
    case 'WITHOUT_EFFORT':
      if (reasoning?.type === 'Effort') {
        throw refuse('sampling with Effort', value, ['temperature or topP without an Effort']);
      }
      return;
  }
}

function openAiToolChoice(
  choice: ToolChoice | undefined,
): string | Readonly<Record<string, unknown>> | undefined {
  switch (choice?.type) {
    case undefined:
      return undefined;
    case 'Auto':
      return 'auto';
    case 'Any':
      return 'required';
    case 'None':
      return 'none';
    case 'Required':
      return choice.allowedTools.length === 1
        ? { type: 'function', name: choice.allowedTools[0] }
        : {
            type: 'allowed_tools',
            mode: 'required',
            tools: choice.allowedTools.map((name) => ({ type: 'function', name })),
          };
  }
}
