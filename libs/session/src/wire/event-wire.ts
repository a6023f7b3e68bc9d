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
import { readCount, variantNames, WireObject } from './wire-object.js';
import { type Wire } from './wire-type.js';

export type QueryEventWire = Wire<QueryEvent>;

const EVENT_TYPES = variantNames<QueryEventType>({
  RunStarted: true,
  RunEnded: true,
  AssistantText: true,
  AssistantThinking: true,
  AssistantCitations: true,
  UserMessageReceived: true,
  MessageBlocked: true,
  ContextWarning: true,
  ContextEdited: true,
  ToolUse: true,
  ToolUseDelta: true,
  ToolResult: true,
  ToolBlocked: true,
  ToolMutated: true,
  HookFired: true,
  QuestionAsked: true,
  TurnEnded: true,
  TurnRetried: true,
  Error: true,
});

/** The event as plain JSON data: `JSON.stringify` of it never throws. */
export function toWire(event: QueryEvent): QueryEventWire {
  const base = {
    sessionId: event.sessionId,
    runId: event.runId,
    turnIndex: event.turnIndex,
    timestamp: event.timestamp,
  };
  switch (event.type) {
    case 'RunStarted':
      return { type: event.type, ...base };
    case 'RunEnded':
      return { type: event.type, ...base, result: resultToWire(event.result) };
    case 'AssistantText':
      return { type: event.type, ...base, text: event.text };
    case 'AssistantThinking':
      return { type: event.type, ...base, text: event.text, signature: event.signature };
    case 'AssistantCitations':
      return { type: event.type, ...base, citations: event.citations.map(citationToWire) };
    case 'UserMessageReceived':
      return { type: event.type, ...base, message: userMessageToWire(event.message) };
    case 'MessageBlocked':
      return {
        type: event.type,
        ...base,
        message: userMessageToWire(event.message),
        hookName: event.hookName,
        reason: event.reason,
      };
    case 'ContextWarning':
      return { type: event.type, ...base, usagePct: event.usagePct };
    case 'ContextEdited':
      return {
        type: event.type,
        ...base,
        removedBlocks: event.removedBlocks,
        tokensBefore: event.tokensBefore,
        tokensAfter: event.tokensAfter,
      };
    case 'ToolUse':
      return { type: event.type, ...base, call: toolCallToWire(event.call) };
    case 'ToolUseDelta':
      return {
        type: event.type,
        ...base,
        callId: event.callId,
        toolName: event.toolName,
        argumentsDelta: event.argumentsDelta,
      };
    case 'ToolResult':
      return {
        type: event.type,
        ...base,
        call: toolCallToWire(event.call),
        result: toolResultToWire(event.result),
        redactions: { ...event.redactions },
      };
    case 'ToolBlocked':
      return {
        type: event.type,
        ...base,
        call: toolCallToWire(event.call),
        hookName: event.hookName,
        reason: event.reason,
      };
    case 'ToolMutated':
      return {
        type: event.type,
        ...base,
        call: toolCallToWire(event.call),
        hookName: event.hookName,
        inputBefore: { ...event.inputBefore },
        inputAfter: { ...event.inputAfter },
      };
    case 'HookFired':
      return {
        type: event.type,
        ...base,
        hookName: event.hookName,
        phase: event.phase,
        outcomeKind: event.outcomeKind,
      };
    case 'QuestionAsked':
      return { type: event.type, ...base, request: questionToWire(event.request) };
    case 'TurnEnded':
      return {
        type: event.type,
        ...base,
        reason: event.reason,
        usage: usageToWire(event.usage),
        cost: costToWire(event.cost),
      };
    case 'TurnRetried':
      return {
        type: event.type,
        ...base,
        attemptNumber: event.attemptNumber,
        backoffMs: event.backoffMs,
        providerName: event.providerName,
        error: errorToWire(event.error),
      };
    case 'Error':
      return { type: event.type, ...base, error: errorToWire(event.error) };
    default: {
      const unknown: never = event;
      throw unknownVariant('QueryEvent', unknown);
    }
  }
}

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
  return Object.freeze(variantFromWire(type, base, wire));
}

function variantFromWire(type: QueryEventType, base: EventBase, wire: WireObject): QueryEvent {
  switch (type) {
    case 'RunStarted':
      return { type, ...base };
    case 'RunEnded':
      return { type, ...base, result: resultFromWire(wire.get('result'), wire.pathOf('result')) };
    case 'AssistantText':
      return { type, ...base, text: wire.string('text') };
    case 'AssistantThinking':
      return { type, ...base, text: wire.string('text'), signature: wire.string('signature') };
    case 'AssistantCitations':
      return { type, ...base, citations: wire.array('citations', readCitation) };
    case 'UserMessageReceived':
      return { type, ...base, message: wire.read('message', readUserMessage) };
    case 'MessageBlocked':
      return {
        type,
        ...base,
        message: wire.read('message', readUserMessage),
        hookName: wire.string('hookName'),
        reason: wire.string('reason'),
      };
    case 'ContextWarning':
      return { type, ...base, usagePct: wire.nonNegative('usagePct') };
    case 'ContextEdited':
      return {
        type,
        ...base,
        removedBlocks: wire.count('removedBlocks'),
        tokensBefore: wire.count('tokensBefore'),
        tokensAfter: wire.count('tokensAfter'),
      };
    case 'ToolUse':
      return { type, ...base, call: wire.read('call', readToolCall) };
    case 'ToolUseDelta':
      return {
        type,
        ...base,
        callId: wire.string('callId'),
        toolName: wire.string('toolName'),
        argumentsDelta: wire.string('argumentsDelta'),
      };
    case 'ToolResult':
      return {
        type,
        ...base,
        call: wire.read('call', readToolCall),
        result: wire.read('result', readToolResult),
        redactions: wire.record('redactions', readCount),
      };
    case 'ToolBlocked':
      return {
        type,
        ...base,
        call: wire.read('call', readToolCall),
        hookName: wire.string('hookName'),
        reason: wire.string('reason'),
      };
    case 'ToolMutated':
      return {
        type,
        ...base,
        call: wire.read('call', readToolCall),
        hookName: wire.string('hookName'),
        inputBefore: Object.freeze({ ...wire.jsonObject('inputBefore') }),
        inputAfter: Object.freeze({ ...wire.jsonObject('inputAfter') }),
      };
    case 'HookFired':
      return {
        type,
        ...base,
        hookName: wire.string('hookName'),
        phase: wire.string('phase'),
        outcomeKind: wire.string('outcomeKind'),
      };
    case 'QuestionAsked':
      return { type, ...base, request: wire.read('request', readQuestion) };
    case 'TurnEnded':
      return {
        type,
        ...base,
        reason: readStopReason(wire, 'reason'),
        usage: wire.read('usage', readUsage),
        cost: readCost(wire, 'cost'),
      };
    case 'TurnRetried':
      return {
        type,
        ...base,
        attemptNumber: wire.count('attemptNumber'),
        backoffMs: wire.count('backoffMs'),
        providerName: wire.string('providerName'),
        error: wire.read('error', readError),
      };
    case 'Error':
      return { type, ...base, error: wire.read('error', readError) };
    default: {
      const unknown: never = type;
      throw unknownVariant('QueryEvent', { type: unknown });
    }
  }
}
