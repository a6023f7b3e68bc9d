/**
 * How core's model options are spelled in Chat Completions, and which ones it cannot express. The
 * model is checked at creation, so a config that would be sent differently from what it says throws
 * there, naming the model, the rejected value and what is accepted.
 */
import {
  InvalidArgumentError,
  type ModelConfig,
  Reasoning,
  ReasoningDisplay,
  type ToolChoice,
} from '@helios/core';

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
  const reasoning = config.reasoning;
  if (reasoning?.type === 'Effort' && reasoning.display !== ReasoningDisplay.HIDDEN) {
    throw refusal(modelId, 'reasoning', Reasoning.describe(reasoning), [
      `Effort(<level>, ${ReasoningDisplay.HIDDEN})`,
      'Off',
    ]);
  }
  const choice = config.toolChoice;
  if (choice?.type === 'Required' && choice.allowedTools.length > 1) {
    throw refusal(modelId, 'toolChoice', `Required(${choice.allowedTools.join(', ')})`, [
      'Auto',
      'Any',
      'None',
      'Required(<one tool>)',
    ]);
  }
  if (config.apiVersion !== undefined) {
    throw refusal(modelId, 'apiVersion', config.apiVersion, ['none (the version is in the base URL)']);
  }
}

function refusal(modelId: string, option: string, value: string, accepted: readonly string[]): Error {
  return new InvalidArgumentError(
    `openai-compatible model '${modelId}' does not accept ${option} ${value}; accepted: ${accepted.join(', ')}`,
  );
}
