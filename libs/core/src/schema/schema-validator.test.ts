import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it, vi } from 'vitest';
import { InvalidArgumentError } from '../common/helios-error.js';
import { describeFieldError, type JsonSchema } from './json-schema.js';
import { compileJsonSchema, jsonTypeOf, validateJson } from './schema-validator.js';

const messages = (value: unknown, schema: object) =>
  validateJson(value, schema as JsonSchema).map(describeFieldError);

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

describe('validateJson: keywords beyond the basic ones', () => {
  it('follows $ref into $defs, recursively', () => {
    const schema = {
      $defs: {
        Node: {
          type: 'object',
          properties: { v: { type: 'integer' }, kids: { type: 'array', items: { $ref: '#/$defs/Node' } } },
          required: ['v'],
        },
      },
      $ref: '#/$defs/Node',
    };
    expect(messages({ v: 1, kids: [{ v: 2, kids: [] }] }, schema)).toEqual([]);
    expect(messages({ v: 1, kids: [{ v: 'x' }, {}] }, schema)).toEqual([
      "field 'kids[0].v' expected integer, got string",
      "field 'kids[1].v' is required but missing",
    ]);
  });

  it('checks pattern, multipleOf and exclusive bounds', () => {
    expect(messages('ab-1', { type: 'string', pattern: '^[a-z]+$' })).toEqual([
      `field '$' must match pattern /^[a-z]+$/, got "ab-1"`,
    ]);
    expect(messages(7, { multipleOf: 3, exclusiveMinimum: 7, exclusiveMaximum: 5 })).toEqual([
      "field '$' must be > 7, got 7",
      "field '$' must be < 5, got 7",
      "field '$' must be a multiple of 3, got 7",
    ]);
  });

  it('checks every member of allOf', () => {
    const schema = {
      allOf: [
        { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        { properties: { b: { minimum: 1 } }, required: ['b'] },
      ],
    };
    expect(messages({ a: 'x', b: 2 }, schema)).toEqual([]);
    expect(messages({ a: 1, b: 0 }, schema)).toEqual([
      "field 'a' expected string, got integer",
      "field 'b' must be ≥ 1, got 0",
    ]);
    expect(messages({}, schema)).toEqual([
      "field 'a' is required but missing",
      "field 'b' is required but missing",
    ]);
  });

  it('checks property counts, unique items and contains', () => {
    expect(messages({ a: 1 }, { minProperties: 2 })).toEqual([
      "field '$' must have at least 2 properties, got 1",
    ]);
    expect(messages({ a: 1, b: 2 }, { maxProperties: 1 })).toEqual([
      "field '$' must have at most 1 properties, got 2",
    ]);
    expect(messages([1, 2, 1], { uniqueItems: true })).toEqual([
      "field '$' must not contain duplicates, but items [0] and [2] are equal",
    ]);
    expect(messages([{ a: 1 }, { a: 1 }], { uniqueItems: true })).toHaveLength(1);
    expect(messages([1, 2], { contains: { type: 'string' } })).toEqual([
      "field '$' must contain at least 1 item(s) matching string",
    ]);
    expect(messages(['a'], { contains: { const: 'b' }, minContains: 1, maxContains: 2 })).toEqual([
      `field '$' must contain at least 1 and at most 2 item(s) matching "b"`,
    ]);
  });

  it('checks not, if/then/else and false schemas', () => {
    expect(messages(null, { not: { type: 'null' } })).toEqual(["field '$' must not be null"]);
    expect(messages('a', { not: { enum: ['a'] } })).toEqual([`field '$' must not be ["a"]`]);
    expect(messages(1, { not: { minimum: 0 } })).toEqual([`field '$' must not match the schema under "not"`]);
    expect(messages(1, { not: true })).toEqual(["field '$' must not be anything"]);
    const conditional = {
      type: 'object',
      if: { properties: { kind: { const: 'card' } } },
      then: { required: ['number'] },
      else: { properties: { number: false } },
    };
    expect(messages({ kind: 'card' }, conditional)).toEqual(["field 'number' is required but missing"]);
    expect(messages({ kind: 'cash', number: '1' }, conditional)).toEqual(["field 'number' is not allowed"]);
    expect(messages({ kind: 'cash' }, conditional)).toEqual([]);
  });

  it('checks patternProperties, propertyNames, dependentRequired and unevaluatedProperties', () => {
    expect(messages({ x_1: 'a', x_2: 2 }, { patternProperties: { '^x_': { type: 'string' } } })).toEqual([
      "field 'x_2' expected string, got integer",
    ]);
    expect(messages({ ok: 1, Bad: 2 }, { propertyNames: { pattern: '^[a-z]+$' } })).toEqual([
      "field 'Bad' is not an allowed property name",
    ]);
    expect(messages({ card: 1 }, { dependentRequired: { card: ['cvc'] } })).toEqual([
      "field 'cvc' is required when card is present",
    ]);
    const closed = {
      allOf: [{ properties: { a: { type: 'string' } } }],
      properties: { b: {} },
      unevaluatedProperties: false,
    };
    expect(messages({ a: 'x', b: 1 }, closed)).toEqual([]);
    expect(messages({ a: 'x', c: 1 }, closed)).toEqual(["field 'c' is not an allowed property"]);
  });

  it('checks tuples', () => {
    const tuple = { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false };
    expect(messages(['a', 1], tuple)).toEqual([]);
    expect(messages([1, 1, 2], tuple)).toEqual([
      "field '$' must have at most 2 items, got 3",
      "field '[0]' expected string, got integer",
    ]);
    expect(messages(['a', 1, 'b'], { prefixItems: [{}], unevaluatedItems: false })).toEqual([
      "field '$' must have at most 1 items, got 3",
    ]);
  });

  it('reads draft-07 schemas by their $schema', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      definitions: { Name: { type: 'string', maxLength: 3 } },
      type: 'array',
      items: [{ $ref: '#/definitions/Name' }],
      additionalItems: false,
    };
    expect(messages(['abc'], schema)).toEqual([]);
    expect(messages(['abcd', 2], schema)).toEqual([
      "field '$' must have at most 1 items, got 2",
      "field '[0]' must have at most 3 characters, got 4",
    ]);
    expect(
      messages({ a: 1 }, { $schema: 'http://json-schema.org/draft-07/schema', dependencies: { a: ['b'] } }),
    ).toEqual(["field 'b' is required when a is present"]);
  });
});

describe('compileJsonSchema', () => {
  it('compiles each schema object once', () => {
    const compile = vi.spyOn(Ajv2020.prototype, 'compile');
    try {
      const schema = { type: 'string' as const };
      expect(compileJsonSchema(schema)).toBe(compileJsonSchema(schema));
      validateJson('a', schema);
      validateJson(1, schema);
      expect(compile).toHaveBeenCalledTimes(1);
      validateJson('a', { type: 'string' });
      expect(compile).toHaveBeenCalledTimes(2);
    } finally {
      compile.mockRestore();
    }
  });

  it('lets two schemas share an $id', () => {
    const text = compileJsonSchema({ $id: 'https://example.com/same', type: 'string' });
    const number = compileJsonSchema({ $id: 'https://example.com/same', type: 'number' });
    expect(text('a')).toEqual([]);
    expect(number('a')).toEqual([{ path: '', message: 'expected number, got string' }]);
  });

  it.each([
    ['an unknown type', { type: 'strin' }, /'type' must be one of \[.*\], got "strin"/],
    ['a non-numeric bound', { minimum: 'x' }, /'minimum' expected number, got string/],
    ['a bad pattern', { pattern: '(' }, /Invalid regular expression/],
    ['an unresolvable $ref', { $ref: '#/$defs/Missing' }, /can't resolve reference #\/\$defs\/Missing/],
    [
      'an unsupported $schema',
      { $schema: 'http://json-schema.org/draft-04/schema#' },
      /unsupported \$schema/,
    ],
    ['a non-string $schema', { $schema: 7 }, /\$schema must be a string/],
    ['an async schema', { $async: true, type: 'string' }, /asynchronous schemas/],
  ])('refuses %s', (_label, schema, message) => {
    expect(() => compileJsonSchema(schema as JsonSchema)).toThrow(InvalidArgumentError);
    expect(() => validateJson('x', schema as JsonSchema)).toThrow(message);
  });

  it('refuses a schema that is not an object', () => {
    expect(() => compileJsonSchema(null as unknown as JsonSchema)).toThrow(/expected an object/);
    expect(() => compileJsonSchema([] as unknown as JsonSchema)).toThrow(/expected an object/);
  });

  it('accepts annotations and vendor keywords', () => {
    const schema = {
      type: 'string',
      title: 'Name',
      examples: ['a'],
      nullable: true,
      'x-vendor': { any: 1 },
      format: 'x-vendor-format',
    } as JsonSchema;
    expect(messages('anything', schema)).toEqual([]);
    expect(messages(1, schema)).toEqual(["field '$' expected string, got integer"]);
  });
});

describe('validateJson formats', () => {
  it('checks standard formats and ignores unknown ones', () => {
    const schema = {
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email' },
        at: { type: 'string', format: 'date-time' },
        id: { type: 'string', format: 'uuid' },
        other: { type: 'string', format: 'x-custom' },
      },
    } as const;
    expect(
      validateJson(
        {
          email: 'a@b.co',
          at: '2026-11-29T10:00:00Z',
          id: '3f1c2a9e-8d4b-4c6e-9f0a-1b2c3d4e5f60',
          other: '?',
        },
        schema,
      ),
    ).toEqual([]);
    const errors = validateJson({ email: 'not-an-email', at: 'yesterday', id: '42', other: '?' }, schema);
    expect(errors.map((e) => e.path)).toEqual(['email', 'at', 'id']);
    expect(errors[0]?.message).toBe('must be a valid email, got "not-an-email"');
  });
});
