/**
 * How validation errors read: a failed union reported once, paths under a prefix, missing fields first,
 * long values shortened, Ajv's own words for a keyword without ours.
 */
import { describe, expect, it } from 'vitest';
import { describeAjvError } from './ajv-field-errors.js';
import { describeFieldError, type JsonSchema } from './json-schema.js';
import { validateJson } from './schema-validator.js';

const messages = (value: unknown, schema: object) =>
  validateJson(value, schema as JsonSchema).map(describeFieldError);

describe('validateJson: unions', () => {
  it('reports a failed anyOf once, naming referenced definitions', () => {
    const schema = {
      $defs: {
        Address: { type: 'object', properties: { street: { type: 'string' } }, required: ['street'] },
      },
      type: 'object',
      properties: { home: { anyOf: [{ $ref: '#/$defs/Address' }, { type: 'null' }] } },
    };
    expect(messages({ home: null }, schema)).toEqual([]);
    expect(messages({ home: { street: 'x' } }, schema)).toEqual([]);
    expect(messages({ home: { street: 1 } }, schema)).toEqual([
      "field 'home' expected one of Address | null, got object",
    ]);
    expect(messages({ home: 3 }, schema)).toEqual([
      "field 'home' expected one of Address | null, got integer",
    ]);
  });

  it('folds the errors of a recursive branch into the summary too', () => {
    const schema = { type: 'object', properties: { next: { anyOf: [{ $ref: '#' }, { type: 'null' }] } } };
    expect(messages({ next: { next: null } }, schema)).toEqual([]);
    expect(messages({ next: { next: 1 } }, schema)).toEqual([
      "field 'next' expected one of schema | null, got object",
    ]);
  });

  it('keeps errors of the same value from outside the union', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string' } },
      anyOf: [{ required: ['b'] }, { required: ['c'] }],
    };
    expect(messages({ a: 1 }, schema)).toEqual([
      "field '$' expected one of schema | schema, got object",
      "field 'a' expected string, got integer",
    ]);
  });

  it('requires exactly one oneOf branch', () => {
    const schema = { oneOf: [{ type: 'integer' }, { minimum: 0 }, { const: 'x' }] };
    expect(messages(-1, schema)).toEqual([]);
    expect(messages(1, schema)).toEqual([
      `field '$' must match exactly one of integer | schema | "x", but matches 2`,
    ]);
    expect(messages(false, { oneOf: [false, { type: 'string' }] })).toEqual([
      "field '$' expected one of nothing | string, got boolean",
    ]);
  });

  it('lets a wrong type stand alone for its schema only', () => {
    expect(messages(1, { type: 'string', enum: ['a'], minLength: 2 })).toEqual([
      "field '$' expected string, got integer",
    ]);
    expect(messages(1, { type: 'string', allOf: [{ enum: ['a'] }] })).toEqual([
      "field '$' expected string, got integer",
      `field '$' must be one of ["a"], got 1`,
    ]);
  });
});

describe('validateJson: paths and order', () => {
  it('lists missing fields first, then fields in the value’s order', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      required: ['z', 'a', 'y'],
      additionalProperties: false,
    };
    expect(messages({ b: 1, x: 1, a: 2 }, schema)).toEqual([
      "field 'z' is required but missing",
      "field 'y' is required but missing",
      "field 'b' expected string, got integer",
      "field 'x' is not an allowed property",
      "field 'a' expected string, got integer",
    ]);
  });

  it('puts paths under a prefix and keeps odd property names intact', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { 'a/b~c': { type: 'array', items: { type: 'string' } } },
    };
    expect(validateJson({ 'a/b~c': ['x', 2] }, schema, 'out')).toEqual([
      { path: 'out.a/b~c[1]', message: 'expected string, got integer' },
    ]);
    expect(validateJson([1], { items: { type: 'string' } }, 'list')).toEqual([
      { path: 'list[0]', message: 'expected string, got integer' },
    ]);
  });

  it('shortens long offending values but never the allowed ones', () => {
    const [error] = validateJson('x'.repeat(500), { pattern: '^y' });
    expect(error?.message).toBe(`must match pattern /^y/, got "${'x'.repeat(78)}…`);
    expect(validateJson('b', { enum: ['a'.repeat(100)] })[0]?.message).toContain('a'.repeat(100));
  });

  it('counts characters as code points and ignores inherited properties', () => {
    expect(messages('😀', { minLength: 2 })).toEqual(["field '$' must have at least 2 characters, got 1"]);
    const inherited = Object.create({ a: 1 }) as object;
    expect(messages(inherited, { required: ['a'] })).toEqual(["field 'a' is required but missing"]);
  });

  it('falls back to Ajv’s own words for a keyword it has none for', () => {
    const error = { keyword: 'x-custom', instancePath: '', schemaPath: '#/x-custom', params: {} };
    expect(describeAjvError({ ...error, message: 'must pass x-custom' })).toBe('must pass x-custom');
  });

  it('rejects NaN and Infinity as numbers', () => {
    expect(messages(Number.NaN, { type: 'number' })).toEqual(["field '$' expected number, got number"]);
    expect(messages(Infinity, { type: 'integer' })).toEqual(["field '$' expected integer, got number"]);
  });
});
