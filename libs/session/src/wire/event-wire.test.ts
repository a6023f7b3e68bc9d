/**
 * Examples of the wire form: the bigint case JSON.stringify cannot take on its own, golden JSON for one
 * event of each family (so the form cannot drift silently), refusal of values outside a family, and a
 * type-level list of every field the wire code writes. Rejection of bad input: event-wire.rejects.test.ts.
 */
import {
  type Citation,
  type FileReference,
  inlineFile,
  type InlineFile,
  type ToolCall,
  toolCall,
  ToolResult,
  type Usage,
  type UserMessage,
} from '@helios/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { BASE, GOLDEN, overBudget, PNG, runEnded, WIRE_BASE } from '../../test/wire-fixtures.js';
import { type QueryEvent } from '../query-event.js';
import { type ResultMessage } from '../result-message.js';
import { type QuestionOption, type QuestionRequest } from '../questions/question.js';
import { type SerializedError } from '../serialized-error.js';
import { toolResultToWire } from './content-wire.js';
import { fromWire, toWire } from './event-wire.js';
import { resultFromWire, resultToWire } from './result-wire.js';
import { WireFormatError } from './wire-error.js';

describe('wire form examples', () => {
  it('JSON.stringify of a RunEnded carrying ErrorMaxBudgetUsd throws on the bigint, of its wire form does not', () => {
    expect(() => JSON.stringify(runEnded)).toThrow(TypeError);
    const text = JSON.stringify(toWire(runEnded));
    expect(text).toContain('"microUsdSpent":"9223372036854775807"');
    expect(fromWire(JSON.parse(text))).toStrictEqual(runEnded);
  });

  it.each(GOLDEN)('golden: %s', (_name, event, wire) => {
    expect(JSON.stringify(toWire(event))).toBe(JSON.stringify(wire));
    expect(fromWire(wire)).toStrictEqual(event);
  });

  it('resultToWire / resultFromWire stand alone, with "result" as the root of error paths', () => {
    expect(resultFromWire(JSON.parse(JSON.stringify(resultToWire(overBudget))))).toStrictEqual(overBudget);
    expect(() => resultFromWire({ ...resultToWire(overBudget), microUsdSpent: '-1' })).toThrow(
      'invalid wire form at result.microUsdSpent: expected a decimal string of micro-USD, got the string "-1"',
    );
  });

  it('a ToolResult Failure keeps its attachments', () => {
    const failure = { ...ToolResult.failure('boom'), attachments: [inlineFile(PNG, 'image/png')] };
    const event: QueryEvent = {
      type: 'ToolResult',
      ...BASE,
      call: toolCall('c', 't'),
      result: failure,
      redactions: {},
    };
    expect(toWire(event)).toMatchObject({ result: { type: 'Failure', output: 'boom' } });
    expect(fromWire(JSON.parse(JSON.stringify(toWire(event))))).toStrictEqual(event);
  });

  it('reads back a free-form `__proto__` key as an own field, not a prototype', () => {
    const wire = { type: 'ToolResult', ...WIRE_BASE, ...JSON.parse('{"redactions":{"__proto__":2}}') };
    const event = fromWire({
      ...wire,
      call: { id: 'c', name: 't', arguments: {} },
      result: { type: 'Success', output: '', attachments: [] },
    });
    expect(
      event.type === 'ToolResult' && Object.getOwnPropertyDescriptor(event.redactions, '__proto__'),
    ).toEqual(expect.objectContaining({ value: 2 }));
    expect(Object.getPrototypeOf(event.type === 'ToolResult' ? event.redactions : null)).toBe(
      Object.prototype,
    );
  });

  it('ignores fields it does not know (a newer writer may add some)', () => {
    expect(fromWire({ type: 'RunStarted', ...WIRE_BASE, addedLater: true })).toStrictEqual({
      type: 'RunStarted',
      ...BASE,
    });
  });

  it('reads the values it rebuilds frozen', () => {
    const event = fromWire(GOLDEN[2]![2]);
    expect(Object.isFrozen(event)).toBe(true);
    expect(event.type === 'ToolResult' && Object.isFrozen(event.result.attachments)).toBe(true);
  });
});

describe('toWire refuses a value outside its family (a caller that went around the types)', () => {
  it.each([
    ['QueryEvent', () => toWire({ type: 'RunPaused', ...BASE } as unknown as QueryEvent)],
    ['ResultMessage', () => resultToWire({ ...overBudget, type: 'Nope' } as unknown as ResultMessage)],
    [
      'ToolResult',
      () => toolResultToWire({ type: 'Maybe', output: '', attachments: [] } as unknown as ToolResult),
    ],
  ])('%s', (family, encode) => {
    expect(encode).toThrow(new RegExp(`${family} has no variant "(RunPaused|Nope|Maybe)"`));
    expect(encode).toThrow(WireFormatError);
  });
});

/** Every field name of every variant of a union. */
type FieldsOf<T> = T extends unknown ? keyof T : never;

describe('the wire code knows every field', () => {
  // A field added to one of these types fails the typecheck here: carry it in the wire form (and its
  // arbitrary in round-trip.test.ts, and the README's Wire form section), then add it to the list.
  it('of every event, result and value it writes', () => {
    expectTypeOf<FieldsOf<QueryEvent>>().toEqualTypeOf<
      | 'type'
      | 'sessionId'
      | 'runId'
      | 'turnIndex'
      | 'timestamp'
      | 'result'
      | 'text'
      | 'signature'
      | 'citations'
      | 'message'
      | 'hookName'
      | 'reason'
      | 'usagePct'
      | 'removedBlocks'
      | 'tokensBefore'
      | 'tokensAfter'
      | 'call'
      | 'callId'
      | 'toolName'
      | 'argumentsDelta'
      | 'redactions'
      | 'inputBefore'
      | 'inputAfter'
      | 'phase'
      | 'outcomeKind'
      | 'request'
      | 'usage'
      | 'cost'
      | 'attemptNumber'
      | 'backoffMs'
      | 'providerName'
      | 'error'
    >();
    expectTypeOf<FieldsOf<ResultMessage>>().toEqualTypeOf<
      | 'type'
      | 'sessionId'
      | 'runId'
      | 'usage'
      | 'cost'
      | 'durationMs'
      | 'result'
      | 'citations'
      | 'turnsUsed'
      | 'microUsdSpent'
      | 'error'
      | 'providerName'
      | 'attemptsMade'
      | 'refusalText'
      | 'reason'
    >();
    expectTypeOf<keyof Usage>().toEqualTypeOf<
      'inputTokens' | 'outputTokens' | 'cacheWriteTokens' | 'cacheReadTokens' | 'totalTokens'
    >();
    expectTypeOf<keyof SerializedError>().toEqualTypeOf<'kind' | 'message' | 'stackTrace' | 'cause'>();
    expectTypeOf<keyof Citation>().toEqualTypeOf<
      'sourceId' | 'title' | 'url' | 'content' | 'startIndex' | 'endIndex' | 'metadata'
    >();
    expectTypeOf<keyof QuestionRequest>().toEqualTypeOf<
      'questionId' | 'header' | 'question' | 'options' | 'multiSelect'
    >();
    expectTypeOf<keyof QuestionOption>().toEqualTypeOf<'label' | 'description'>();
    expectTypeOf<keyof UserMessage>().toEqualTypeOf<'role' | 'content' | 'inlineFiles' | 'fileReferences'>();
    expectTypeOf<keyof InlineFile>().toEqualTypeOf<'type' | 'data' | 'mimeType' | 'name'>();
    expectTypeOf<keyof FileReference>().toEqualTypeOf<'type' | 'uri' | 'mimeType'>();
    expectTypeOf<keyof ToolCall>().toEqualTypeOf<'id' | 'name' | 'arguments'>();
    expectTypeOf<FieldsOf<ToolResult>>().toEqualTypeOf<'type' | 'output' | 'data' | 'attachments'>();
  });
});
