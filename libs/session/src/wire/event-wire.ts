/**
 * The wire form of QueryEvent, the one JSON shape SSE clients and durable stores read: every event's
 * own fields under their own names, the variant name in `type`, micro-USD as decimal strings, bytes as
 * base64 beside their mimeType. `fromWire(JSON.parse(JSON.stringify(toWire(event))))` equals `event`.
 */
import { type EventBase, type QueryEvent, type QueryEventType } from '../query-event.js';
import {
  readToolCall,
  readToolResult,
  readUserMessage,
  toolCallToWire,
  toolResultToWire,
  userMessageToWire,
} from './content-wire.js';
import { resultFromWire, resultToWire } from './result-wire.js';
import {
  citationToWire,
  costToWire,
  errorToWire,
  questionToWire,
  readCitation,
  readCost,
  readError,
  readQuestion,
  readStopReason,
  readUsage,
  usageToWire,
} from './values-wire.js';
import { unknownVariant } from './wire-error.js';
import { readCount, variantTable, WireObject } from './wire-object.js';
import { type Wire } from './wire-type.js';

export type QueryEventWire = Wire<QueryEvent>;

type EventOf<K extends QueryEventType> = Extract<QueryEvent, { readonly type: K }>;

/**
 * One small encoder per variant, keyed by the variant name: the compiler checks that every variant has
 * one and that each writes exactly its variant's wire form. A table rather than one long switch keeps
 * each mapping readable on its own; the dispatch is one property load.
 */
type Encoders = {
  readonly [K in QueryEventType]: (event: EventOf<K>, base: EventBase) => Wire<EventOf<K>>;
};
type Encoder = (event: QueryEvent, base: EventBase) => QueryEventWire;

const ENCODERS = variantTable<Encoders>({
  RunStarted: (event, base) => ({ type: event.type, ...base }),
  RunEnded: (event, base) => ({ type: event.type, ...base, result: resultToWire(event.result) }),
  AssistantText: (event, base) => ({ type: event.type, ...base, text: event.text }),
  AssistantThinking: (event, base) => ({
    type: event.type,
    ...base,
    text: event.text,
    signature: event.signature,
  }),
  AssistantCitations: (event, base) => ({
    type: event.type,
    ...base,
    citations: event.citations.map(citationToWire),
  }),
  UserMessageReceived: (event, base) => ({
    type: event.type,
    ...base,
    message: userMessageToWire(event.message),
  }),
  MessageBlocked: (event, base) => ({
    type: event.type,
    ...base,
    message: userMessageToWire(event.message),
    hookName: event.hookName,
    reason: event.reason,
  }),
  ContextWarning: (event, base) => ({ type: event.type, ...base, usagePct: event.usagePct }),
  ContextEdited: (event, base) => ({
    type: event.type,
    ...base,
    removedBlocks: event.removedBlocks,
    tokensBefore: event.tokensBefore,
    tokensAfter: event.tokensAfter,
  }),
  ToolUse: (event, base) => ({ type: event.type, ...base, call: toolCallToWire(event.call) }),
  ToolUseDelta: (event, base) => ({
    type: event.type,
    ...base,
    callId: event.callId,
    toolName: event.toolName,
    argumentsDelta: event.argumentsDelta,
  }),
  ToolResult: (event, base) => ({
    type: event.type,
    ...base,
    call: toolCallToWire(event.call),
    result: toolResultToWire(event.result),
    redactions: { ...event.redactions },
  }),
  ToolBlocked: (event, base) => ({
    type: event.type,
    ...base,
    call: toolCallToWire(event.call),
    hookName: event.hookName,
    reason: event.reason,
  }),
  ToolMutated: (event, base) => ({
    type: event.type,
    ...base,
    call: toolCallToWire(event.call),
    hookName: event.hookName,
    inputBefore: { ...event.inputBefore },
    inputAfter: { ...event.inputAfter },
  }),
  HookFired: (event, base) => ({
    type: event.type,
    ...base,
    hookName: event.hookName,
    phase: event.phase,
    outcomeKind: event.outcomeKind,
  }),
  QuestionAsked: (event, base) => ({ type: event.type, ...base, request: questionToWire(event.request) }),
  TurnEnded: (event, base) => ({
    type: event.type,
    ...base,
    reason: event.reason,
    usage: usageToWire(event.usage),
    cost: costToWire(event.cost),
  }),
  TurnRetried: (event, base) => ({
    type: event.type,
    ...base,
    attemptNumber: event.attemptNumber,
    backoffMs: event.backoffMs,
    providerName: event.providerName,
    error: errorToWire(event.error),
  }),
  Error: (event, base) => ({ type: event.type, ...base, error: errorToWire(event.error) }),
});

/** The event as plain JSON data: `JSON.stringify` of it never throws. */
export function toWire(event: QueryEvent): QueryEventWire {
  const encode = ENCODERS[event.type] as Encoder | undefined;
  if (encode === undefined) throw unknownVariant('QueryEvent', event);
  return encode(event, {
    sessionId: event.sessionId,
    runId: event.runId,
    turnIndex: event.turnIndex,
    timestamp: event.timestamp,
  });
}

/** One decoder per variant, as for the encoders: each reads its variant's own fields. */
type Decoders = {
  readonly [K in QueryEventType]: (type: K, base: EventBase, wire: WireObject) => EventOf<K>;
};
type Decoder = (type: QueryEventType, base: EventBase, wire: WireObject) => QueryEvent;

const DECODERS = variantTable<Decoders>({
  RunStarted: (type, base) => ({ type, ...base }),
  RunEnded: (type, base, wire) => ({
    type,
    ...base,
    result: resultFromWire(wire.get('result'), wire.pathOf('result')),
  }),
  AssistantText: (type, base, wire) => ({ type, ...base, text: wire.string('text') }),
  AssistantThinking: (type, base, wire) => ({
    type,
    ...base,
    text: wire.string('text'),
    signature: wire.string('signature'),
  }),
  AssistantCitations: (type, base, wire) => ({
    type,
    ...base,
    citations: wire.array('citations', readCitation),
  }),
  UserMessageReceived: (type, base, wire) => ({
    type,
    ...base,
    message: wire.read('message', readUserMessage),
  }),
  MessageBlocked: (type, base, wire) => ({
    type,
    ...base,
    message: wire.read('message', readUserMessage),
    hookName: wire.string('hookName'),
    reason: wire.string('reason'),
  }),
  ContextWarning: (type, base, wire) => ({ type, ...base, usagePct: wire.nonNegative('usagePct') }),
  ContextEdited: (type, base, wire) => ({
    type,
    ...base,
    removedBlocks: wire.count('removedBlocks'),
    tokensBefore: wire.count('tokensBefore'),
    tokensAfter: wire.count('tokensAfter'),
  }),
  ToolUse: (type, base, wire) => ({ type, ...base, call: wire.read('call', readToolCall) }),
  ToolUseDelta: (type, base, wire) => ({
    type,
    ...base,
    callId: wire.string('callId'),
    toolName: wire.string('toolName'),
    argumentsDelta: wire.string('argumentsDelta'),
  }),
  ToolResult: (type, base, wire) => ({
    type,
    ...base,
    call: wire.read('call', readToolCall),
    result: wire.read('result', readToolResult),
    redactions: wire.record('redactions', readCount),
  }),
  ToolBlocked: (type, base, wire) => ({
    type,
    ...base,
    call: wire.read('call', readToolCall),
    hookName: wire.string('hookName'),
    reason: wire.string('reason'),
  }),
  ToolMutated: (type, base, wire) => ({
    type,
    ...base,
    call: wire.read('call', readToolCall),
    hookName: wire.string('hookName'),
    inputBefore: Object.freeze({ ...wire.jsonObject('inputBefore') }),
    inputAfter: Object.freeze({ ...wire.jsonObject('inputAfter') }),
  }),
  HookFired: (type, base, wire) => ({
    type,
    ...base,
    hookName: wire.string('hookName'),
    phase: wire.string('phase'),
    outcomeKind: wire.string('outcomeKind'),
  }),
  QuestionAsked: (type, base, wire) => ({ type, ...base, request: wire.read('request', readQuestion) }),
  TurnEnded: (type, base, wire) => ({
    type,
    ...base,
    reason: readStopReason(wire, 'reason'),
    usage: wire.read('usage', readUsage),
    cost: readCost(wire, 'cost'),
  }),
  TurnRetried: (type, base, wire) => ({
    type,
    ...base,
    attemptNumber: wire.count('attemptNumber'),
    backoffMs: wire.count('backoffMs'),
    providerName: wire.string('providerName'),
    error: wire.read('error', readError),
  }),
  Error: (type, base, wire) => ({ type, ...base, error: wire.read('error', readError) }),
});

/** The variant names in the decoders' order, for `type`'s "one of …" message. */
const EVENT_TYPES = Object.freeze(Object.keys(DECODERS) as QueryEventType[]);

/**
 * Reads an event back from its wire form (parsed JSON from an SSE stream or a store), rebuilding the
 * real values. Throws WireFormatError (code INVALID_WIRE_EVENT) naming the path of the first bad field.
 */
export function fromWire(json: unknown): QueryEvent {
  const wire = WireObject.at(json, 'event');
  const type = wire.oneOf('type', EVENT_TYPES);
  const base: EventBase = {
    sessionId: wire.string('sessionId'),
    runId: wire.string('runId'),
    turnIndex: wire.count('turnIndex'),
    timestamp: wire.count('timestamp'),
  };
  return Object.freeze((DECODERS[type] as Decoder)(type, base, wire));
}
