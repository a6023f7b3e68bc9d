/** A tool call the model asked for: its provider-assigned id, the tool name and parsed arguments. */
import { requireNonBlank } from '../common/validate.js';

export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

export function toolCall(id: string, name: string, args: Readonly<Record<string, unknown>> = {}): ToolCall {
  return Object.freeze({
    id: requireNonBlank(id, 'tool call id'),
    name: requireNonBlank(name, 'tool name'),
    arguments: Object.freeze({ ...args }),
  });
}
