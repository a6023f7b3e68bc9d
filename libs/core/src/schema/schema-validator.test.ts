import { describe, expect, it } from 'vitest';
import { describeFieldError } from './json-schema.js';
import { jsonTypeOf, validateJson } from './schema-validator.js';

const messages = (value: unknown, schema: Parameters<typeof validateJson>[1]) =>
  validateJson(value, schema).map(describeFieldError);

describe('validateJson', () => {
  it('checks each type on both sides', () => {
    expect(messages('x', { type: 'string' })).toEqual([]);
    expect(messages(1, { type: 'string' })).toEqual(["field '$' expected string, got integer"]);
    expect(messages(1, { type: 'integer' })).toEqual([]);
    expect(messages(1.5, { type: 'integer' })).toEqual(["field '$' expected integer, got number"]);
    expect(messages(1.5, { type: 'number' })).toEqual([]);
    expect(messages(true, { type: 'boolean' })).toEqual([]);
    expect(messages(null, { type: 'null' })).toEqual([]);
    expect(messages(null, { type: ['string', 'null'] })).toEqual([]);
    expect(messages([], { type: 'object' })).toEqual(["field '$' expected object, got array"]);
    expect(messages({}, { type: 'array' })).toEqual(["field '$' expected array, got object"]);
    expect(messages(undefined, { type: 'string' })).toEqual(["field '$' expected string, got nothing"]);
  });

  it('checks enum, const, bounds and lengths', () => {
    expect(messages('c', { enum: ['a', 'b'] })).toEqual([`field '$' must be one of ["a","b"], got "c"`]);
    expect(messages('a', { const: 'a' })).toEqual([]);
    expect(messages('b', { const: 'a' })).toEqual([`field '$' must be "a", got "b"`]);
    expect(messages(5, { minimum: 6, maximum: 4 })).toEqual([
      "field '$' must be ≥ 6, got 5",
      "field '$' must be ≤ 4, got 5",
    ]);
    expect(messages('ab', { minLength: 3 })).toEqual(["field '$' must have at least 3 characters, got 2"]);
    expect(messages([1, 2], { maxItems: 1 })).toEqual(["field '$' must have at most 1 items, got 2"]);
    expect(messages([1, 2], { minItems: 2, maxItems: 2 })).toEqual([]);
  });

  it('checks alternatives', () => {
    const schema = { anyOf: [{ type: 'string' as const }, { type: 'null' as const }] };
    expect(messages(null, schema)).toEqual([]);
    expect(messages(1, schema)).toEqual(["field '$' expected one of string | null, got integer"]);
    expect(messages(1, { oneOf: [{ enum: ['a'] }, { properties: {} }] })).toEqual([]);
    expect(
      messages(true, { oneOf: [{ enum: ['a'] }, { type: ['string', 'integer'] }, { minimum: 1 }] }),
    ).toEqual([]);
  });

  it('checks nested objects with paths', () => {
    const schema = {
      type: 'object' as const,
      properties: {
        a: {
          type: 'object' as const,
          properties: { b: { type: 'array' as const, items: { type: 'integer' as const } } },
        },
      },
      required: ['a'],
      additionalProperties: { type: 'string' as const },
    };
    expect(messages({ a: { b: [1, 'x'] }, extra: 2, ok: 's' }, schema)).toEqual([
      "field 'a.b[1]' expected integer, got string",
      "field 'extra' expected string, got integer",
    ]);
    expect(messages({ a: undefined }, schema)).toEqual(["field 'a' is required but missing"]);
  });

  it('names JSON types', () => {
    expect([null, [], 1, 1.5, 'x', {}].map(jsonTypeOf)).toEqual([
      'null',
      'array',
      'integer',
      'number',
      'string',
      'object',
    ]);
  });
});
