/**
 * How core's model options are spelled in Chat Completions, and which ones it cannot express. The
 * model is checked at creation, so a config that would be sent differently from what it says throws
 * there, naming the model, the rejected value and what is accepted.
 */
import { type ModelConfig, Reasoning, ReasoningDisplay, type ToolChoice } from '@helios/core';
import { refusal } from '../shared/model-setup.js';

/** `reasoning_effort` as servers that follow OpenAI spell it; Off is `none`. */
export function chatReasoningEffort(reasoning: Reasoning): string {
  return reasoning.type === 'Off' ? 'none' : reasoning.level.toLowerCase();
}

export function chatToolChoice(choice: ToolChoice): string | Record<string, unknown> {
  switch (choice.type) {
    case 'Auto':
      return 'auto';
    case 'Any':
      return 'required';
    case 'None':
      return 'none';
    case 'Required':
      return { type: 'function', function: { name: choice.allowedTools[0] } };
  }
}

/** Throws for options Chat Completions has no field for, instead of dropping them silently. */
export function checkChatConfig(modelId: string, config: ModelConfig): void {
  const refuse = refusal('openai-compatible', modelId);
  const reasoning = config.reasoning;
  if (reasoning?.type === 'Effort' && reasoning.display !== ReasoningDisplay.HIDDEN) {
    throw refuse('reasoning', Reasoning.describe(reasoning), [
      `Effort(<level>, ${ReasoningDisplay.HIDDEN})`,
      'Off',
    ]);
  }
  const choice = config.toolChoice;
  if (choice?.type === 'Required' && choice.allowedTools.length > 1) {
    throw refuse('toolChoice', `Required(${choice.allowedTools.join(', ')})`, [
      'Auto',
      'Any',
      'None',
      'Required(<one tool>)',
    ]);
  }
  if (config.apiVersion !== undefined) {
    throw refuse('apiVersion', config.apiVersion, ['none (the version is in the base URL)']);
  }
}
