/** A complete model turn, as `chat` returns it; `parsed` is set for structured-output calls. */
import { type Citation } from './citation.js';
import { type FinishReason } from './finish-reason.js';
import { Message, type AssistantMessage } from './message.js';
import { type ToolCall } from './tool-call.js';
import { type Usage } from './usage.js';

export interface Response<T = undefined> {
  readonly content: string;
  readonly parsed: T;
  readonly toolCalls: readonly ToolCall[];
  readonly finishReason: FinishReason;
  readonly usage: Usage;
  readonly thinking?: string;
  readonly citations: readonly Citation[];
  readonly metadata: Readonly<Record<string, string>>;
}

/** The assistant message that records this turn in a conversation, provider metadata included. */
export function responseToMessage(response: Response<unknown>): AssistantMessage {
  return Message.assistant(response.content, {
    toolCalls: response.toolCalls,
    metadata: response.metadata,
    ...(response.thinking === undefined ? {} : { thinking: response.thinking }),
  });
}
