/** Whether and which tools the model may call on a turn. */
import { InvalidArgumentError } from '../common/helios-error.js';

export type ToolChoice =
  | { readonly type: 'Auto' }
  | { readonly type: 'Any' }
  | { readonly type: 'None' }
  | { readonly type: 'Required'; readonly allowedTools: readonly string[] };

export const ToolChoice = {
  auto: (): ToolChoice => Object.freeze({ type: 'Auto' }),
  any: (): ToolChoice => Object.freeze({ type: 'Any' }),
  none: (): ToolChoice => Object.freeze({ type: 'None' }),
  required(allowedTools: readonly string[]): ToolChoice {
    if (allowedTools.length === 0)
      throw new InvalidArgumentError('ToolChoice.required needs at least one tool');
    return Object.freeze({ type: 'Required', allowedTools: Object.freeze([...new Set(allowedTools)]) });
  },
} as const;
