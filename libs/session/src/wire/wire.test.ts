/**
 * Examples of the wire form: the bigint case JSON.stringify cannot take on its own, golden JSON for one
 * event of each family (so the form cannot drift silently), and rejection of bad input by path.
 */
import {
  type Citation,
  CostEstimate,
  type FileReference,
  fileReference,
  HeliosError,
  type InlineFile,
  inlineFile,
  Message,
  type ToolCall,
  toolCall,
  ToolResult,
  Usage,
  type UserMessage,
} from '@helios/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { type QueryEvent } from '../query-event.js';
import { type ErrorMaxBudgetUsd, type ResultMessage } from '../result-message.js';
import { type QuestionOption, type QuestionRequest } from '../questions/question.js';
import { SerializedError } from '../serialized-error.js';
import { StopReason } from '../stop-reason.js';
import { fromWire, toWire } from './event-wire.js';
import { resultFromWire, resultToWire } from './result-wire.js';
import { toolResultToWire } from './content-wire.js';
import { WireFormatError } from './wire-error.js';

const BASE = { sessionId: 's-1', runId: 'r-1', turnIndex: 2, timestamp: 1_700_000_000_000 } as const;
const WIRE_BASE = { sessionId: 's-1', runId: 'r-1', turnIndex: 2, timestamp: 1700000000000 };
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const overBudget: ErrorMaxBudgetUsd = {
  type: 'ErrorMaxBudgetUsd',
  sessionId: 's-1',
  runId: 'r-1',
  usage: Usage.of(1200, 300, 0, 50),
  cost: CostEstimate.ofMicroUsd(9_223_372_036_854_775_807n),
  durationMs: 4210,
  microUsdSpent: 9_223_372_036_854_775_807n,
};
const runEnded: QueryEvent = { type: 'RunEnded', ...BASE, result: overBudget };

/** Golden pairs: an event and its wire form, written out by hand. Key order is pinned too. */
const GOLDEN: readonly (readonly [string, QueryEvent, unknown])[] = [
  [
    'RunEnded carrying ErrorMaxBudgetUsd (micro-USD as decimal strings)',
    runEnded,
    {
      type: 'RunEnded',
      ...WIRE_BASE,
      result: {
        type: 'ErrorMaxBudgetUsd',
        sessionId: 's-1',
        runId: 'r-1',
        usage: {
          inputTokens: 1200,
          outputTokens: 300,
          cacheWriteTokens: 0,
          cacheReadTokens: 50,
          totalTokens: 1550,
        },
        cost: '9223372036854775807',
        durationMs: 4210,
        microUsdSpent: '9223372036854775807',
      },
    },
  ],
  [
    'RunEnded carrying Success with a citation',
    {
      type: 'RunEnded',
      ...BASE,
      result: {
        type: 'Success',
        sessionId: 's-1',
        runId: 'r-1',
        usage: Usage.of(10, 5),
        cost: CostEstimate.ofMicroUsd(1250n),
        durationMs: 80,
        result: '42',
        citations: [{ url: 'https://example.com/a', startIndex: 0, endIndex: 2, metadata: {} }],
      },
    },
    {
      type: 'RunEnded',
      ...WIRE_BASE,
      result: {
        type: 'Success',
        sessionId: 's-1',
        runId: 'r-1',
        usage: { inputTokens: 10, outputTokens: 5, cacheWriteTokens: 0, cacheReadTokens: 0, totalTokens: 15 },
        cost: '1250',
        durationMs: 80,
        result: '42',
        citations: [{ url: 'https://example.com/a', startIndex: 0, endIndex: 2, metadata: {} }],
      },
    },
  ],
  [
    'ToolResult with an attachment (bytes as base64 beside their mimeType)',
    {
      type: 'ToolResult',
      ...BASE,
      call: toolCall('call-1', 'screenshot', { page: 'home', scale: 2 }),
      result: ToolResult.success('captured', {
        data: { width: 8 },
        attachments: [inlineFile(PNG, 'image/png')],
      }),
      redactions: { API_KEY: 1 },
    },
    {
      type: 'ToolResult',
      ...WIRE_BASE,
      call: { id: 'call-1', name: 'screenshot', arguments: { page: 'home', scale: 2 } },
      result: {
        type: 'Success',
        output: 'captured',
        data: { width: 8 },
        attachments: [{ type: 'InlineFile', data: 'iVBORw0KGgo=', mimeType: 'image/png' }],
      },
      redactions: { API_KEY: 1 },
    },
  ],
  [
    'UserMessageReceived with an inline file and a file reference',
    {
      type: 'UserMessageReceived',
      ...BASE,
      message: Message.user('what is in this?', {
        inlineFiles: [inlineFile(new Uint8Array([0, 255]), 'application/octet-stream', 'notes.bin')],
        fileReferences: [fileReference('files/abc', 'application/pdf')],
      }),
    },
    {
      type: 'UserMessageReceived',
      ...WIRE_BASE,
      message: {
        role: 'user',
        content: 'what is in this?',
        inlineFiles: [
          { type: 'InlineFile', data: 'AP8=', mimeType: 'application/octet-stream', name: 'notes.bin' },
        ],
        fileReferences: [{ type: 'FileReference', uri: 'files/abc', mimeType: 'application/pdf' }],
      },
    },
  ],
  [
    'TurnEnded (stop reason, usage, cost)',
    {
      type: 'TurnEnded',
      ...BASE,
      reason: StopReason.TOOL_USE,
      usage: Usage.of(100, 20, 5, 0),
      cost: CostEstimate.ZERO,
    },
    {
      type: 'TurnEnded',
      ...WIRE_BASE,
      reason: 'TOOL_USE',
      usage: {
        inputTokens: 100,
        outputTokens: 20,
        cacheWriteTokens: 5,
        cacheReadTokens: 0,
        totalTokens: 125,
      },
      cost: '0',
    },
  ],
  [
    'TurnRetried with a cause chain (SerializedError)',
    {
      type: 'TurnRetried',
      ...BASE,
      attemptNumber: 1,
      backoffMs: 250,
      providerName: 'anthropic',
      error: {
        kind: 'TransientStreamError',
        message: 'overloaded',
        stackTrace: ['at call (model.ts:1:1)'],
        cause: SerializedError.ofKind('ECONNRESET', 'socket hang up'),
      },
    },
    {
      type: 'TurnRetried',
      ...WIRE_BASE,
      attemptNumber: 1,
      backoffMs: 250,
      providerName: 'anthropic',
      error: {
        kind: 'TransientStreamError',
        message: 'overloaded',
        stackTrace: ['at call (model.ts:1:1)'],
        cause: { kind: 'ECONNRESET', message: 'socket hang up', stackTrace: [] },
      },
    },
  ],
  [
    'QuestionAsked',
    {
      type: 'QuestionAsked',
      ...BASE,
      request: {
        questionId: 'perm-1',
        header: 'Permission',
        question: 'Run rm?',
        options: [{ label: 'Allow', description: 'once' }],
        multiSelect: false,
      },
    },
    {
      type: 'QuestionAsked',
      ...WIRE_BASE,
      request: {
        questionId: 'perm-1',
        header: 'Permission',
        question: 'Run rm?',
        options: [{ label: 'Allow', description: 'once' }],
        multiSelect: false,
      },
    },
  ],
  [
    'ToolUseDelta',
    { type: 'ToolUseDelta', ...BASE, callId: 'call-1', toolName: 'add', argumentsDelta: '{"a":' },
    { type: 'ToolUseDelta', ...WIRE_BASE, callId: 'call-1', toolName: 'add', argumentsDelta: '{"a":' },
  ],
];

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

/** A valid wire event to break one field of. */
function toolResultWire(): Record<string, unknown> {
  return structuredClone(GOLDEN[2]![2]) as Record<string, unknown>;
}
function runEndedWire(): Record<string, unknown> {
  return structuredClone(GOLDEN[0]![2]) as Record<string, unknown>;
}
function turnRetriedWire(): Record<string, unknown> {
  return structuredClone(GOLDEN[5]![2]) as Record<string, unknown>;
}
function at(value: unknown, ...keys: (string | number)[]): Record<string, unknown> {
  return keys.reduce<unknown>((inner, key) => (inner as Record<string, unknown>)[key], value) as Record<
    string,
    unknown
  >;
}
function deepCauses(levels: number): unknown {
  let error: unknown = { kind: 'E', message: 'm', stackTrace: [] };
  for (let i = 1; i < levels; i++) error = { kind: 'E', message: 'm', stackTrace: [], cause: error };
  return error;
}

const REJECTED: readonly (readonly [string, () => unknown, string, RegExp])[] = [
  ['not an object', () => 'RunStarted', 'event', /expected an object, got the string "RunStarted"/],
  ['null', () => null, 'event', /expected an object, got null/],
  ['an array', () => [], 'event', /expected an object, got an array/],
  [
    'no type',
    () => ({ ...WIRE_BASE }),
    'event.type',
    /one of RunStarted, RunEnded, .* is required but missing/,
  ],
  [
    'an unknown type',
    () => ({ type: 'RunPaused', ...WIRE_BASE }),
    'event.type',
    /got the string "RunPaused"/,
  ],
  ['a type only the prototype has', () => Object.create({ type: 'RunStarted' }), 'event.type', /missing/],
  ['a missing field', () => ({ type: 'AssistantText', ...WIRE_BASE }), 'event.text', /a string is required/],
  [
    'an object where a string belongs',
    () => ({ type: 'AssistantText', ...WIRE_BASE, text: {} }),
    'event.text',
    /expected a string, got an object/,
  ],
  [
    'a string where an array belongs',
    () => ({ type: 'AssistantCitations', ...WIRE_BASE, citations: 'none' }),
    'event.citations',
    /expected an array, got the string "none"/,
  ],
  [
    'an ill-typed count',
    () => ({ type: 'RunStarted', ...WIRE_BASE, turnIndex: '2' }),
    'event.turnIndex',
    /expected a non-negative integer, got the string "2"/,
  ],
  [
    'a fractional timestamp',
    () => ({ type: 'RunStarted', ...WIRE_BASE, timestamp: 1.5 }),
    'event.timestamp',
    /got number 1.5/,
  ],
  [
    'a negative usagePct',
    () => ({ type: 'ContextWarning', ...WIRE_BASE, usagePct: -0.1 }),
    'event.usagePct',
    /a finite number ≥ 0/,
  ],
  ...(['1.5', '-1', '01', '1e3', '', ' 1', '0x10'] as const).map(
    (money) =>
      [
        `micro-USD ${JSON.stringify(money)}`,
        () => {
          const wire = runEndedWire();
          at(wire, 'result').microUsdSpent = money;
          return wire;
        },
        'event.result.microUsdSpent',
        /expected a decimal string of micro-USD/,
      ] as const,
  ),
  [
    'micro-USD as a JSON number',
    () => {
      const wire = runEndedWire();
      at(wire, 'result').cost = 1250;
      return wire;
    },
    'event.result.cost',
    /expected a decimal string of micro-USD, got number 1250/,
  ],
  [
    'a totalTokens that is not the sum',
    () => {
      const wire = runEndedWire();
      at(wire, 'result', 'usage').totalTokens = 1;
      return wire;
    },
    'event.result.usage.totalTokens',
    /must be the sum of the four counts, 1550/,
  ],
  [
    'an unknown result type',
    () => {
      const wire = runEndedWire();
      at(wire, 'result').type = 'ErrorMaxCoffee';
      return wire;
    },
    'event.result.type',
    /one of Success, ErrorMaxTurns/,
  ],
  [
    'bytes that are not base64',
    () => {
      const wire = toolResultWire();
      at(wire, 'result', 'attachments', 0).data = 'not base64!';
      return wire;
    },
    'event.result.attachments[0].data',
    /expected non-empty base64/,
  ],
  [
    'empty bytes',
    () => {
      const wire = toolResultWire();
      at(wire, 'result', 'attachments', 0).data = '';
      return wire;
    },
    'event.result.attachments[0].data',
    /expected non-empty base64/,
  ],
  [
    'a blank mimeType',
    () => {
      const wire = toolResultWire();
      at(wire, 'result', 'attachments', 0).mimeType = ' ';
      return wire;
    },
    'event.result.attachments[0].mimeType',
    /expected a non-blank string/,
  ],
  [
    'a blank file name',
    () => {
      const wire = toolResultWire();
      at(wire, 'result', 'attachments', 0).name = '';
      return wire;
    },
    'event.result.attachments[0].name',
    /expected a non-blank string, got the string ""/,
  ],
  [
    'a blank tool call id',
    () => {
      const wire = toolResultWire();
      at(wire, 'call').id = '';
      return wire;
    },
    'event.call.id',
    /expected a non-blank string/,
  ],
  [
    'tool arguments that are not an object',
    () => {
      const wire = toolResultWire();
      at(wire, 'call').arguments = [1];
      return wire;
    },
    'event.call.arguments',
    /expected an object, got an array/,
  ],
  [
    'an unknown tool result type',
    () => {
      const wire = toolResultWire();
      at(wire, 'result').type = 'Maybe';
      return wire;
    },
    'event.result.type',
    /one of Success, Failure/,
  ],
  [
    'a redaction count that is not a count',
    () => {
      const wire = toolResultWire();
      at(wire, 'redactions').API_KEY = -1;
      return wire;
    },
    'event.redactions.API_KEY',
    /non-negative integer/,
  ],
  [
    'an unknown stop reason',
    () => ({ ...(GOLDEN[4]![2] as object), reason: 'end_turn' }),
    'event.reason',
    /one of END_TURN, TOOL_USE, MAX_TOKENS, REFUSAL, ERROR, INTERRUPTED/,
  ],
  [
    'a stack frame that is not a string',
    () => {
      const wire = turnRetriedWire();
      at(wire, 'error').stackTrace = ['at a', 7];
      return wire;
    },
    'event.error.stackTrace[1]',
    /expected a string, got number 7/,
  ],
  [
    'a cause chain deeper than 16',
    () => ({ ...turnRetriedWire(), error: deepCauses(17) }),
    `event.error${'.cause'.repeat(16)}`,
    /cause chain deeper than 16 errors/,
  ],
  [
    'a user message with another role',
    () => ({ ...(GOLDEN[3]![2] as object), message: { role: 'assistant', content: '' } }),
    'event.message.role',
    /one of user/,
  ],
  [
    'a question whose multiSelect is not a boolean',
    () => {
      const wire = structuredClone(GOLDEN[6]![2]) as Record<string, unknown>;
      at(wire, 'request').multiSelect = 'no';
      return wire;
    },
    'event.request.multiSelect',
    /expected a boolean, got the string "no"/,
  ],
  [
    'a long bad string, shortened in the message',
    () => ({ type: 'RunStarted', ...WIRE_BASE, turnIndex: 'x'.repeat(100) }),
    'event.turnIndex',
    /got the string "x{40}…"$/,
  ],
];

describe('fromWire rejects bad input, naming the path of the bad field', () => {
  it.each(REJECTED)('%s', (_name, input, path, message) => {
    let thrown: unknown;
    try {
      fromWire(input());
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(WireFormatError);
    expect(thrown).toBeInstanceOf(HeliosError);
    const error = thrown as WireFormatError;
    expect(error.code).toBe('INVALID_WIRE_EVENT');
    expect(error.name).toBe('WireFormatError');
    expect(error.path).toBe(path);
    expect(error.message.startsWith(`invalid wire form at ${path}: `)).toBe(true);
    expect(error.message).toMatch(message);
  });

  it('accepts a cause chain of exactly 16 errors', () => {
    expect(fromWire({ ...turnRetriedWire(), error: deepCauses(16) })).toMatchObject({ type: 'TurnRetried' });
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
