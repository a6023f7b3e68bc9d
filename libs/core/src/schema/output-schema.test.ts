import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { InvalidArgumentError } from '../common/helios-error.js';
import { ProvenanceValidator, ValidationResult } from '../provenance/provenance-validator.js';
import { type JsonSchema, type JsonSchemaType } from './json-schema.js';
import { parseLenientJson } from './lenient-json.js';
import { OutputSchema } from './output-schema.js';
import { StructuredOutputParseError } from './structured-output-parse-error.js';

const Sentiment = z.object({ label: z.enum(['positive', 'negative']), confidence: z.number().min(0).max(1) });

function parseError(run: () => unknown): StructuredOutputParseError {
  try {
    run();
  } catch (error) {
    if (error instanceof StructuredOutputParseError) return error;
    throw error;
  }
  throw new Error('expected a parse error');
}

describe('parseLenientJson', () => {
  it.each([
    ['raw JSON', '{"a":1}'],
    ['a json code fence', 'Here you go:\n```json\n{"a":1}\n```\nThanks'],
    ['a bare code fence', '```\n{"a":1}\n```'],
    ['an object in prose', 'The answer is {"a":1} as requested.'],
    ['an object with braces in strings', 'x {"a":1,"s":"}{\\"}"} y'],
  ])('accepts %s', (_label, text) => {
    const result = parseLenientJson(text);
    expect(result.ok).toBe(true);
    expect(result.ok && (result.value as { a: number }).a).toBe(1);
  });

  it('reports empty text and syntax errors', () => {
    expect(parseLenientJson('  ')).toEqual({ ok: false, error: 'response is empty; expected a JSON value' });
    expect(parseLenientJson('no json {here')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^JSON syntax error/) as unknown,
    });
    expect(parseLenientJson('```json\n{bad}\n```').ok).toBe(false);
    expect(parseLenientJson('{bad}').ok).toBe(false);
  });
});

describe('OutputSchema.of (zod)', () => {
  const schema = OutputSchema.of(Sentiment, { name: 'sentiment' });

  it('produces the JSON Schema sent to providers, without $schema', () => {
    expect(schema.name).toBe('sentiment');
    expect(schema.jsonSchema).not.toHaveProperty('$schema');
    expect(schema.jsonSchema).toMatchObject({ type: 'object', required: ['label', 'confidence'] });
    expect(OutputSchema.of(z.string()).name).toBe('output');
  });

  it('a blank answer is no answer (undefined), not a parse error', () => {
    expect(schema.parse('')).toBeUndefined();
    expect(schema.parse(' \n\t ')).toBeUndefined();
    expect(parseError(() => schema.parse('{}')).errors.length).toBeGreaterThan(0);
  });

  it('parses fenced answers', () => {
    expect(schema.parse('```json\n{"label":"positive","confidence":0.9}\n```')).toEqual({
      label: 'positive',
      confidence: 0.9,
    });
  });

  it('lists every mismatching field in the diff and the correction text', () => {
    const error = parseError(() => schema.parse('{"label":"meh","extra":1}'));
    expect(error.code).toBe('STRUCTURED_OUTPUT_PARSE');
    expect(error.errors.map((e) => e.path)).toEqual(['label', 'confidence']);
    expect(error.errors[1]?.message).toBe('is required but missing');
    const correction = error.correctionMessage();
    expect(correction).toMatch(/^Your previous response did not match the required JSON schema\./);
    expect(correction).toContain("- field 'label' invalid option");
    expect(correction).toContain("- field 'confidence' is required but missing");
    expect(error.rawContent).toBe('{"label":"meh","extra":1}');
  });

  it('names wrong types with what was found', () => {
    const error = parseError(() =>
      OutputSchema.of(z.object({ n: z.array(z.number()) })).parse('{"n":[1,"2"]}'),
    );
    expect(error.errors).toEqual([{ path: 'n[1]', message: 'expected number, got string' }]);
  });

  it('keeps raw text out when capture is disabled', () => {
    const error = parseError(() => schema.parse('Paris is the capital of France', 'DISABLED'));
    expect(error.rawContent).toBeUndefined();
    expect(error.errors[0]?.path).toBe('');
    expect(error.message).toContain("field '$' JSON syntax error");
    // JSON.parse's own message quotes the text it choked on: none of it may reach the error.
    for (const text of [error.message, error.correctionMessage(), JSON.stringify(error.errors)])
      expect(text).not.toMatch(/Paris/);
    const enabled = parseError(() => schema.parse('Paris is the capital of France'));
    expect(enabled.rawContent).toBe('Paris is the capital of France');
  });
});

describe('OutputSchema.fromJsonSchema', () => {
  const schema = OutputSchema.fromJsonSchema<{ name: string; tags?: string[] }>({
    type: 'object',
    properties: { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
    required: ['name'],
    additionalProperties: false,
  });

  it('checks values with the built-in validator', () => {
    expect(schema.parse('{"name":"x","tags":["a"]}')).toEqual({ name: 'x', tags: ['a'] });
    const error = parseError(() => schema.parse('{"tags":[1],"other":true}'));
    expect(error.errors.map((e) => `${e.path}: ${e.message}`)).toEqual([
      'name: is required but missing',
      'tags[0]: expected string, got integer',
      'other: is not an allowed property',
    ]);
  });

  it('enforces every keyword of the schema, not just the common ones', () => {
    const strict = OutputSchema.fromJsonSchema<{ id: string; items: number[] }>({
      $defs: { Id: { type: 'string', pattern: '^[A-Z]{3}-\\d+$' } },
      type: 'object',
      properties: { id: { $ref: '#/$defs/Id' }, items: { type: 'array', uniqueItems: true } },
      required: ['id', 'items'],
      allOf: [{ minProperties: 3 }],
    });
    const error = parseError(() => strict.parse('{"id":"abc-1","items":[1,1]}'));
    expect(error.errors).toEqual([
      { path: '', message: 'must have at least 3 properties, got 2' },
      { path: 'id', message: 'must match pattern /^[A-Z]{3}-\\d+$/, got "abc-1"' },
      { path: 'items', message: 'must not contain duplicates, but items [0] and [1] are equal' },
    ]);
  });

  it('compiles zod’s JSON Schema output as it is', () => {
    const generated = z.toJSONSchema(
      z.object({
        email: z.email(),
        pair: z.tuple([z.string(), z.number()]),
        home: z.object({ city: z.string() }).meta({ id: 'Home', 'x-note': 'vendor keyword' }).nullable(),
      }),
    ) as JsonSchema;
    expect(generated['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
    const schema = OutputSchema.fromJsonSchema(generated);
    expect(schema.check({ email: 'a@b.co', pair: ['x', 1], home: null }).ok).toBe(true);
    const result = schema.check({ email: 'nope', pair: ['x', 1, 2], home: { city: 1 } });
    expect(result.ok ? [] : result.errors.map((e) => e.path)).toEqual(['email', 'pair', 'home']);
  });

  it('refuses an invalid schema when it is built, not when it is used', () => {
    const build = (jsonSchema: JsonSchema) => () => OutputSchema.fromJsonSchema(jsonSchema);
    expect(build({ type: 'object', properties: { n: { type: 'int' as JsonSchemaType } } })).toThrow(
      InvalidArgumentError,
    );
    expect(build({ properties: { n: { type: 'int' as JsonSchemaType } } })).toThrow(
      /^invalid JSON Schema: 'properties\.n\.type' must be one of \[/,
    );
    expect(build({ $ref: '#/$defs/Nope' })).toThrow(/can't resolve reference/);
    expect(build({ minimum: 'one' } as unknown as JsonSchema)).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/'minimum'/) }),
    );
  });

  it('compiles its schema once, however many values it checks', () => {
    const compile = vi.spyOn(Ajv2020.prototype, 'compile');
    try {
      const schema = OutputSchema.fromJsonSchema<number>({ type: 'integer' });
      expect(compile).toHaveBeenCalledTimes(1);
      expect([1, 2, 'x', 3].map((value) => schema.check(value).ok)).toEqual([true, true, false, true]);
      expect(compile).toHaveBeenCalledTimes(1);
    } finally {
      compile.mockRestore();
    }
  });

  it('reports an empty error list as a generic mismatch', () => {
    const error = new StructuredOutputParseError([], undefined);
    expect(error.errors).toHaveLength(1);
  });
});

describe('OutputSchema.provenancedOf', () => {
  const schema = OutputSchema.provenancedOf(OutputSchema.of(z.object({ city: z.string() })));
  const entry = (confidence: string, sources: unknown[] = []) => ({
    field: 'city',
    sources,
    reasoning: 'because',
    confidence,
  });

  it('wraps the inner schema with provenance entries', () => {
    expect(schema.jsonSchema).toMatchObject({
      required: ['output', 'provenance'],
      properties: { output: { type: 'object' } },
    });
    const value = schema.parse(
      JSON.stringify({
        output: { city: 'Paris' },
        provenance: [entry('high', [{ url: 'https://x', excerpts: ['Paris is'], title: 'X' }]), entry('LOW')],
      }),
    );
    expect(value?.output).toEqual({ city: 'Paris' });
    expect(value?.provenance.map((p) => p.confidence)).toEqual(['HIGH', 'LOW']);
    expect(value?.provenance[0]?.sources[0]).toEqual({
      url: 'https://x',
      title: 'X',
      excerpts: ['Paris is'],
    });
  });

  it('rejects MEDIUM or HIGH without sources by default', () => {
    const error = parseError(() =>
      schema.parse(JSON.stringify({ output: { city: 'Paris' }, provenance: [entry('MEDIUM')] })),
    );
    expect(error.errors).toEqual([
      { path: 'provenance[0]', message: "field 'city': confidence=MEDIUM requires at least one source" },
    ]);
  });

  it('accepts a custom validator', () => {
    const lenient = OutputSchema.provenancedOf(
      OutputSchema.of(z.object({ city: z.string() })),
      ProvenanceValidator.NONE,
    );
    expect(
      lenient.parse(JSON.stringify({ output: { city: 'P' }, provenance: [entry('HIGH')] }))?.provenance,
    ).toHaveLength(1);
    const strict = OutputSchema.provenancedOf(OutputSchema.of(z.object({ city: z.string() })), (e) =>
      e.reasoning.length > 20 ? ValidationResult.ok() : ValidationResult.fail('explain more'),
    );
    expect(
      parseError(() => strict.parse(JSON.stringify({ output: { city: 'P' }, provenance: [entry('LOW')] })))
        .errors[0]?.message,
    ).toBe('explain more');
  });

  it('diffs the output, the entries and their shape together', () => {
    const error = parseError(() =>
      schema.parse(
        JSON.stringify({
          output: { city: 7 },
          provenance: [{ field: 'city' }, entry('SURE'), entry('LOW', [{ url: ' ', excerpts: [] }])],
        }),
      ),
    );
    expect(error.errors.map((e) => e.path)).toEqual([
      'output.city',
      'provenance[0].sources',
      'provenance[0].reasoning',
      'provenance[0].confidence',
      'provenance[1]',
      'provenance[2]',
    ]);
    expect(parseError(() => schema.parse('[1]')).errors[0]?.message).toMatch(
      /object with output and provenance/,
    );
    expect(parseError(() => schema.parse('{"output":{"city":"x"}}')).errors).toEqual([
      { path: 'provenance', message: 'is required but missing' },
    ]);
    expect(parseError(() => schema.parse('{"output":{"city":"x"},"provenance":3}')).errors[0]?.message).toBe(
      'expected array',
    );
  });

  it('prefixes array paths of an array output', () => {
    const list = OutputSchema.provenancedOf(OutputSchema.of(z.array(z.string())));
    expect(parseError(() => list.parse('{"output":[1],"provenance":[]}')).errors[0]?.path).toBe('output[0]');
    expect(parseError(() => list.parse('{"output":3,"provenance":[]}')).errors[0]?.path).toBe('output');
  });
});
