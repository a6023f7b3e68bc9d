/** fromWire rejects bad input with a WireFormatError naming the path of the first bad field. */
import { HeliosError } from '@helios/core';
import { describe, expect, it } from 'vitest';
import { GOLDEN, WIRE_BASE } from '../../test/wire-fixtures.js';
import { fromWire } from './event-wire.js';
import { WireFormatError } from './wire-error.js';

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
