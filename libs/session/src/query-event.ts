/**
 * Everything a session emits, one closed family; the variant name is the SSE event name. Every event
 * names its session, its run, the session-wide turn index and when it happened (epoch ms). Arguments,
 * results, reasons and error messages are already redacted against the session's secrets.
 */
import {
  type Citation,
  type CostEstimate,
  type ToolCall,
  type ToolResult,
  type Usage,
  type UserMessage,
} from '@helios/core';
import { type QuestionRequest } from './questions/question.js';
import { type ResultMessage } from './result-message.js';
import { type SerializedError } from './serialized-error.js';
import { type StopReason } from './stop-reason.js';

export interface EventBase {
  readonly sessionId: string;
  readonly runId: string;
  readonly turnIndex: number;
  readonly timestamp: number;
}

type Variant<T extends string, F = object> = EventBase & { readonly type: T } & F;

export type RunStarted = Variant<'RunStarted'>;
export type RunEnded = Variant<'RunEnded', { readonly result: ResultMessage }>;
export type AssistantText = Variant<'AssistantText', { readonly text: string }>;
export type AssistantThinking = Variant<
  'AssistantThinking',
  { readonly text: string; readonly signature: string }
>;
export type AssistantCitations = Variant<'AssistantCitations', { readonly citations: readonly Citation[] }>;
export type UserMessageReceived = Variant<'UserMessageReceived', { readonly message: UserMessage }>;
export type MessageBlocked = Variant<
  'MessageBlocked',
  { readonly message: UserMessage; readonly hookName: string; readonly reason: string }
>;
export type ContextWarning = Variant<'ContextWarning', { readonly usagePct: number }>;
export type ContextEdited = Variant<
  'ContextEdited',
  { readonly removedBlocks: number; readonly tokensBefore: number; readonly tokensAfter: number }
>;
export type ToolUse = Variant<'ToolUse', { readonly call: ToolCall }>;
/**
 * A fragment of a tool call's arguments as the model streams them (raw JSON text, for UIs that show
 * arguments forming). Redacted like ToolUse's arguments: the start of a registered secret is held back
 * until the next fragment shows it is not one. ToolUse carries the parsed call once it is complete.
 */
export type ToolUseDelta = Variant<
  'ToolUseDelta',
  { readonly callId: string; readonly toolName: string; readonly argumentsDelta: string }
>;
export type ToolResultEvent = Variant<
  'ToolResult',
  {
    readonly call: ToolCall;
    readonly result: ToolResult;
    /** Occurrences of each secret the redaction of this result replaced. */
    readonly redactions: Readonly<Record<string, number>>;
  }
>;
export type ToolBlocked = Variant<
  'ToolBlocked',
  { readonly call: ToolCall; readonly hookName: string; readonly reason: string }
>;
export type ToolMutated = Variant<
  'ToolMutated',
  {
    readonly call: ToolCall;
    readonly hookName: string;
    readonly inputBefore: Readonly<Record<string, unknown>>;
    readonly inputAfter: Readonly<Record<string, unknown>>;
  }
>;
export type HookFired = Variant<
  'HookFired',
  { readonly hookName: string; readonly phase: string; readonly outcomeKind: string }
>;
export type QuestionAsked = Variant<'QuestionAsked', { readonly request: QuestionRequest }>;
export type TurnEnded = Variant<
  'TurnEnded',
  { readonly reason: StopReason; readonly usage: Usage; readonly cost: CostEstimate }
>;
export type TurnRetried = Variant<
  'TurnRetried',
  {
    readonly attemptNumber: number;
    readonly backoffMs: number;
    readonly providerName: string;
    readonly error: SerializedError;
  }
>;
export type ErrorEvent = Variant<'Error', { readonly error: SerializedError }>;

export type QueryEvent =
  | RunStarted
  | RunEnded
  | AssistantText
  | AssistantThinking
  | AssistantCitations
  | UserMessageReceived
  | MessageBlocked
  | ContextWarning
  | ContextEdited
  | ToolUse
  | ToolUseDelta
  | ToolResultEvent
  | ToolBlocked
  | ToolMutated
  | HookFired
  | QuestionAsked
  | TurnEnded
  | TurnRetried
  | ErrorEvent;

export type QueryEventType = QueryEvent['type'];

/** A variant's own fields, without the common ones the emitter fills in. */
export type EventFields<E extends QueryEvent = QueryEvent> = E extends QueryEvent
  ? Omit<E, keyof EventBase>
  : never;

/** Control events wait (bounded) for room in a full reader; every other event never waits. */
export function isControlEvent(type: QueryEventType): boolean {
  return type === 'RunEnded' || type === 'QuestionAsked' || type === 'Error';
}
