/**
 * One piece of a streamed model turn. MessageStop is always the last chunk of a complete turn; a turn
 * that fails throws from the iteration instead of ending with it.
 */
import { type Citation } from './citation.js';
import { type FinishReason } from './finish-reason.js';
import { type ToolCall } from './tool-call.js';
import { type Usage } from './usage.js';

export interface TextDelta {
  readonly type: 'TextDelta';
  readonly text: string;
}

export interface ThinkingDelta {
  readonly type: 'ThinkingDelta';
  readonly text: string;
}

export interface ToolUseStart {
  readonly type: 'ToolUseStart';
  readonly callId: string;
  readonly toolName: string;
}

/** A raw fragment of the call's JSON arguments as the provider streams them. */
export interface ToolUseDelta {
  readonly type: 'ToolUseDelta';
  readonly callId: string;
  readonly argumentsDelta: string;
}

/** The call complete, arguments parsed. */
export interface ToolUseStop {
  readonly type: 'ToolUseStop';
  readonly toolCall: ToolCall;
}

export interface CitationsChunk {
  readonly type: 'Citations';
  readonly citations: readonly Citation[];
}

/** Running usage some providers report mid-stream; informational. */
export interface UsageDelta {
  readonly type: 'UsageDelta';
  readonly usage: Usage;
}

export interface MessageStop {
  readonly type: 'MessageStop';
  readonly finishReason: FinishReason;
  readonly usage: Usage;
  /** Provider data that must survive replay (signatures, continuation ids), kept verbatim. */
  readonly metadata: Readonly<Record<string, string>>;
}

export type ModelChunk =
  | TextDelta
  | ThinkingDelta
  | ToolUseStart
  | ToolUseDelta
  | ToolUseStop
  | CitationsChunk
  | UsageDelta
  | MessageStop;
