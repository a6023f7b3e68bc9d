/**
 * Checks a ModelConfig against a Gemini model's catalogue entry once, at creation, and spells what it
 * asks for in `generation_config`: the request carries exactly what was asked, or creation throws
 * naming the model, the rejected value and the accepted ones. Nothing is clamped or silently dropped.
 */
import {
  type ModelConfig,
  Reasoning,
  ReasoningDisplay,
  type ReasoningLevel,
  type ToolChoice,
} from '@helios/core';
import { refusal, type Refuse } from '../shared/model-setup.js';
import { type GeminiModelSpec, UNCATALOGUED_LEVELS } from './gemini-catalogue.js';

/** The Interactions API's temperature range. */
const MAX_TEMPERATURE = 2;
const DISPLAYS = [ReasoningDisplay.HIDDEN, ReasoningDisplay.SUMMARY] as const;

export interface GeminiRequestOptions {
  /** `generation_config` fields fixed by the config (tool choice excluded). */
  readonly generation: Readonly<Record<string, unknown>>;
  /** Sent only with tools. */
  readonly toolChoice: string | Readonly<Record<string, unknown>> | undefined;
  /** The ceiling the model reports and sends: config, else catalogue, else undefined (never 0 sent). */
  readonly maxOutputTokens: number | undefined;
}

export function geminiRequestOptions(
  modelId: string,
  spec: GeminiModelSpec | undefined,
  config: ModelConfig,
): GeminiRequestOptions {
  const refuse = refusal('gemini', modelId);
  const ceiling = spec?.maxOutputTokens;
  if (ceiling !== undefined && config.maxOutputTokens !== undefined && config.maxOutputTokens > ceiling) {
    throw refuse('maxOutputTokens', String(config.maxOutputTokens), [`1..${ceiling}`]);
  }
  if (config.temperature !== undefined && config.temperature > MAX_TEMPERATURE) {
    throw refuse('temperature', String(config.temperature), [`0..${MAX_TEMPERATURE}`]);
  }
  const generation: Record<string, unknown> = {};
  const maxOutputTokens = config.maxOutputTokens ?? ceiling;
  if (maxOutputTokens !== undefined) generation['max_output_tokens'] = maxOutputTokens;
  if (config.temperature !== undefined) generation['temperature'] = config.temperature;
  if (config.topP !== undefined) generation['top_p'] = config.topP;
  if (config.stopSequences !== undefined) generation['stop_sequences'] = [...config.stopSequences];
  if (config.seed !== undefined) generation['seed'] = config.seed;
  Object.assign(generation, thinkingFields(refuse, spec?.levels ?? UNCATALOGUED_LEVELS, config.reasoning));
  return { generation, toolChoice: geminiToolChoice(config.toolChoice), maxOutputTokens };
}

/** `thinking_level` (+ `thinking_summaries`) for an Effort; Gemini 3 has no spelling for Off. */
function thinkingFields(
  refuse: Refuse,
  levels: readonly ReasoningLevel[],
  reasoning: Reasoning | undefined,
): Record<string, string> {
  if (reasoning === undefined) return {};
  const accepted = [`Effort(${levels.join('|')}, ${DISPLAYS.join('|')})`];
  if (reasoning.type === 'Off') throw refuse('reasoning', 'Off', accepted);
  const displayAccepted = (DISPLAYS as readonly ReasoningDisplay[]).includes(reasoning.display);
  if (!levels.includes(reasoning.level) || !displayAccepted) {
    throw refuse('reasoning', Reasoning.describe(reasoning), accepted);
  }
  return {
    thinking_level: reasoning.level.toLowerCase(),
    thinking_summaries: reasoning.display === ReasoningDisplay.SUMMARY ? 'auto' : 'none',
  };
}

function geminiToolChoice(
  choice: ToolChoice | undefined,
): string | Readonly<Record<string, unknown>> | undefined {
  switch (choice?.type) {
    case undefined:
      return undefined;
    case 'Auto':
      return 'auto';
    case 'Any':
      return 'any';
    case 'None':
      return 'none';
    case 'Required':
      return { allowed_tools: { mode: 'validated', tools: [...choice.allowedTools] } };
  }
}
