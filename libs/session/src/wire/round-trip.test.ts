/**
 * Property: every QueryEvent and ResultMessage variant survives toWire → JSON text → fromWire unchanged,
 * with edge values (empty and non-ASCII strings, micro-USD up to 2^63−1, attachments, cause chains,
 * optional fields present and absent). The arbitraries are keyed by variant name, so a new variant
 * fails the build here until it has one.
 */
import {
  type Citation,
  CostEstimate,
  fileReference,
  inlineFile,
  Message,
  toolCall,
  ToolResult,
  Usage,
} from '@helios/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type EventBase, type QueryEvent, type QueryEventType } from '../query-event.js';
import { type ResultMessage } from '../result-message.js';
import { type SerializedError } from '../serialized-error.js';
import { StopReason } from '../stop-reason.js';
import { fromWire, toWire } from './event-wire.js';
import { resultFromWire, resultToWire } from './result-wire.js';
import { MAX_CAUSE_DEPTH } from './values-wire.js';

const RUNS = 150;
const MAX_I64 = 2n ** 63n - 1n;

const text = fc.oneof(
  fc.constant(''),
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom('héllo wörld', '日本語のテキスト', '👩‍👩‍👧 emoji', 'line\nbreak "quoted" \\ back', '__proto__'),
);
const nonBlank = text.filter((value) => value.trim() !== '');
const count = fc.oneof(fc.constant(0), fc.nat(), fc.maxSafeNat());
const json = fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown);
const jsonObject = fc.dictionary(text, json, { maxKeys: 4, noNullPrototype: true });
const microUsd = fc.oneof(fc.constantFrom(0n, 1n, MAX_I64), fc.bigInt({ min: 0n, max: MAX_I64 }));

const usage = fc
  .tuple(...Array.from({ length: 4 }, () => fc.oneof(fc.constant(0), fc.nat({ max: 2 ** 50 }))))
  .map(([input, output, write, read]) =>
    Usage.of(input!, output!, { cacheWriteTokens: write, cacheReadTokens: read }),
  );
const cost = microUsd.map((amount) => CostEstimate.ofMicroUsd(amount));

const serializedError: fc.Memo<SerializedError> = fc.memo((depth) => {
  const own = { kind: text, message: text, stackTrace: fc.array(text, { maxLength: 3 }) };
  if (depth <= 1) return fc.record(own, { noNullPrototype: true });
  const cause = serializedError(Math.min(depth - 1, MAX_CAUSE_DEPTH - 1));
  return fc.record(
    { ...own, cause },
    { requiredKeys: ['kind', 'message', 'stackTrace'], noNullPrototype: true },
  );
});
const error = serializedError(4);

const citation: fc.Arbitrary<Citation> = fc.record(
  {
    sourceId: text,
    title: text,
    url: text,
    content: text,
    startIndex: count,
    endIndex: count,
    metadata: fc.dictionary(text, text, { maxKeys: 3, noNullPrototype: true }),
  },
  { requiredKeys: ['metadata'], noNullPrototype: true },
);
const citations = fc.array(citation, { maxLength: 3 });

const bytes = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 48 }),
  // A view into a larger buffer: only its own bytes go on the wire.
  fc.uint8Array({ minLength: 3, maxLength: 48 }).map((all) => all.subarray(1, all.length - 1)),
);
const file = fc
  .tuple(bytes, nonBlank, fc.option(nonBlank, { nil: undefined }))
  .map(([data, mimeType, name]) => inlineFile(data, mimeType, name));
const files = fc.array(file, { maxLength: 3 });
const reference = fc.tuple(nonBlank, nonBlank).map(([uri, mimeType]) => fileReference(uri, mimeType));
const userMessage = fc
  .tuple(text, files, fc.array(reference, { maxLength: 2 }))
  .map(([content, inlineFiles, fileReferences]) => Message.user(content, { inlineFiles, fileReferences }));
const call = fc.tuple(nonBlank, nonBlank, jsonObject).map(([id, name, args]) => toolCall(id, name, args));
const toolResult: fc.Arbitrary<ToolResult> = fc.oneof(
  fc
    .tuple(text, fc.option(json, { nil: undefined }), files)
    .map(([output, data, attachments]) => ToolResult.success(output, { data, attachments })),
  fc
    .tuple(text, files)
    .map(([output, attachments]) => Object.freeze({ ...ToolResult.failure(output), attachments })),
);
const question = fc.record(
  {
    questionId: text,
    header: text,
    question: text,
    options: fc.array(fc.record({ label: text, description: text }, { noNullPrototype: true }), {
      maxLength: 3,
    }),
    multiSelect: fc.boolean(),
  },
  { noNullPrototype: true },
);

const resultBase = fc.record(
  { sessionId: text, runId: text, usage, cost, durationMs: count },
  { noNullPrototype: true },
);
const RESULTS: { readonly [T in ResultMessage['type']]: fc.Arbitrary<Extract<ResultMessage, { type: T }>> } =
  {
    Success: fc
      .tuple(resultBase, text, citations)
      .map(([base, result, cited]) => ({ type: 'Success', ...base, result, citations: cited })),
    ErrorMaxTurns: fc
      .tuple(resultBase, count)
      .map(([base, turnsUsed]) => ({ type: 'ErrorMaxTurns', ...base, turnsUsed })),
    ErrorMaxBudgetUsd: fc
      .tuple(resultBase, microUsd)
      .map(([base, microUsdSpent]) => ({ type: 'ErrorMaxBudgetUsd', ...base, microUsdSpent })),
    ErrorMaxWallClock: resultBase.map((base) => ({ type: 'ErrorMaxWallClock', ...base })),
    ErrorDuringExecution: fc
      .tuple(resultBase, error)
      .map(([base, cause]) => ({ type: 'ErrorDuringExecution', ...base, error: cause })),
    ErrorTransientStream: fc
      .tuple(resultBase, text, count, error)
      .map(([base, providerName, attemptsMade, cause]) => ({
        type: 'ErrorTransientStream',
        ...base,
        providerName,
        attemptsMade,
        error: cause,
      })),
    Refusal: fc
      .tuple(resultBase, text)
      .map(([base, refusalText]) => ({ type: 'Refusal', ...base, refusalText })),
    Cancelled: fc.tuple(resultBase, text).map(([base, reason]) => ({ type: 'Cancelled', ...base, reason })),
  };
const anyResult: fc.Arbitrary<ResultMessage> = fc.oneof(...Object.values(RESULTS));

const eventBase: fc.Arbitrary<EventBase> = fc.record(
  { sessionId: text, runId: text, turnIndex: count, timestamp: count },
  { noNullPrototype: true },
);

/** One arbitrary per event variant: the variant's own fields, joined with a random base. */
function variant<T extends QueryEventType>(
  type: T,
  fields: fc.Arbitrary<Omit<Extract<QueryEvent, { type: T }>, keyof EventBase | 'type'>>,
): fc.Arbitrary<QueryEvent> {
  return fc.tuple(eventBase, fields).map(([base, own]) => ({ type, ...base, ...own }) as QueryEvent);
}

const none = fc.constant({});
const EVENTS: { readonly [T in QueryEventType]: fc.Arbitrary<QueryEvent> } = {
  RunStarted: variant('RunStarted', none),
  RunEnded: variant(
    'RunEnded',
    anyResult.map((result) => ({ result })),
  ),
  AssistantText: variant('AssistantText', fc.record({ text })),
  AssistantThinking: variant('AssistantThinking', fc.record({ text, signature: text })),
  AssistantCitations: variant('AssistantCitations', fc.record({ citations })),
  UserMessageReceived: variant('UserMessageReceived', fc.record({ message: userMessage })),
  MessageBlocked: variant(
    'MessageBlocked',
    fc.record({ message: userMessage, hookName: text, reason: text }),
  ),
  ContextWarning: variant(
    'ContextWarning',
    fc.record({
      usagePct: fc.oneof(fc.constantFrom(0, 0.8, 1), fc.double({ min: 0, max: 10, noNaN: true })),
    }),
  ),
  ContextEdited: variant(
    'ContextEdited',
    fc.record({ removedBlocks: count, tokensBefore: count, tokensAfter: count }),
  ),
  ToolUse: variant('ToolUse', fc.record({ call })),
  ToolUseDelta: variant('ToolUseDelta', fc.record({ callId: text, toolName: text, argumentsDelta: text })),
  ToolResult: variant(
    'ToolResult',
    fc.record({
      call,
      result: toolResult,
      redactions: fc.dictionary(text, count, { maxKeys: 3, noNullPrototype: true }),
    }),
  ),
  ToolBlocked: variant('ToolBlocked', fc.record({ call, hookName: text, reason: text })),
  ToolMutated: variant(
    'ToolMutated',
    fc.record({ call, hookName: text, inputBefore: jsonObject, inputAfter: jsonObject }),
  ),
  HookFired: variant('HookFired', fc.record({ hookName: text, phase: text, outcomeKind: text })),
  QuestionAsked: variant('QuestionAsked', fc.record({ request: question })),
  TurnEnded: variant(
    'TurnEnded',
    fc.record({ reason: fc.constantFrom(...Object.values(StopReason)), usage, cost }),
  ),
  TurnRetried: variant(
    'TurnRetried',
    fc.record({ attemptNumber: count, backoffMs: count, providerName: text, error }),
  ),
  Error: variant('Error', fc.record({ error })),
};

/** What a reader on the other side of a socket or a store sees. */
function overTheWire<T>(wire: T): unknown {
  return JSON.parse(JSON.stringify(wire));
}

describe('wire form round trip', () => {
  it.each(Object.keys(EVENTS) as QueryEventType[])('QueryEvent %s: fromWire(toWire(e)) equals e', (type) => {
    fc.assert(
      fc.property(EVENTS[type], (event) => {
        const back = fromWire(overTheWire(toWire(event)));
        expect(back).toStrictEqual(event);
        expect(back.type).toBe(type);
      }),
      { numRuns: RUNS },
    );
  });

  it.each(Object.keys(RESULTS) as ResultMessage['type'][])(
    'ResultMessage %s: resultFromWire(resultToWire(r)) equals r',
    (type) => {
      fc.assert(
        fc.property(RESULTS[type], (result) => {
          expect(resultFromWire(overTheWire(resultToWire(result)))).toStrictEqual(result);
        }),
        { numRuns: RUNS },
      );
    },
  );

  it('the wire form is a fixed point: toWire(fromWire(w)) equals w', () => {
    fc.assert(
      fc.property(fc.oneof(...Object.values(EVENTS)), (event) => {
        const wire = overTheWire(toWire(event));
        expect(overTheWire(toWire(fromWire(wire)))).toStrictEqual(wire);
      }),
      { numRuns: RUNS },
    );
  });
});
