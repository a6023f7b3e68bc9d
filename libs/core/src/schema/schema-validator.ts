/**
 * Checks a parsed JSON value against a JsonSchema and lists every mismatch by field path. It covers the
 * keywords Helios emits (types, properties/required, additionalProperties, items, enum/const, anyOf/oneOf
 * and numeric/length bounds); unknown keywords are ignored rather than guessed at.
 */
import { type FieldError, type JsonSchema, type JsonSchemaType } from './json-schema.js';

export function validateJson(value: unknown, schema: JsonSchema, path = ''): FieldError[] {
  const errors: FieldError[] = [];
  const fail = (message: string): void => {
    errors.push({ path, message });
  };
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && !alternatives.some((option) => validateJson(value, option, path).length === 0)) {
    fail(`expected one of ${alternatives.map(describeSchema).join(' | ')}, got ${jsonTypeOf(value)}`);
    return errors;
  }
  if (schema.type !== undefined) {
    const allowed: readonly JsonSchemaType[] = typeof schema.type === 'string' ? [schema.type] : schema.type;
    if (!allowed.some((type) => hasType(value, type))) {
      fail(`expected ${allowed.join(' | ')}, got ${jsonTypeOf(value)}`);
      return errors;
    }
  }
  if (schema.enum && !schema.enum.some((option) => sameJson(option, value))) {
    fail(`must be one of ${JSON.stringify(schema.enum)}, got ${JSON.stringify(value)}`);
  }
  if ('const' in schema && !sameJson(schema.const, value)) {
    fail(`must be ${JSON.stringify(schema.const)}, got ${JSON.stringify(value)}`);
  }
  if (typeof value === 'number') checkNumber(value, schema, fail);
  if (typeof value === 'string')
    checkLength(value.length, schema.minLength, schema.maxLength, 'characters', fail);
  if (Array.isArray(value)) {
    checkLength(value.length, schema.minItems, schema.maxItems, 'items', fail);
    const items = schema.items;
    if (items) value.forEach((item, index) => errors.push(...validateJson(item, items, `${path}[${index}]`)));
  } else if (isObject(value)) {
    errors.push(...validateObject(value, schema, path));
  }
  return errors;
}

function validateObject(value: Record<string, unknown>, schema: JsonSchema, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const properties = schema.properties ?? {};
  for (const name of schema.required ?? []) {
    if (value[name] === undefined)
      errors.push({ path: join(path, name), message: 'is required but missing' });
  }
  for (const [name, field] of Object.entries(value)) {
    const declared = properties[name];
    if (declared) {
      if (field !== undefined) errors.push(...validateJson(field, declared, join(path, name)));
    } else if (schema.additionalProperties === false) {
      errors.push({ path: join(path, name), message: 'is not an allowed property' });
    } else if (typeof schema.additionalProperties === 'object') {
      errors.push(...validateJson(field, schema.additionalProperties, join(path, name)));
    }
  }
  return errors;
}

function checkNumber(value: number, schema: JsonSchema, fail: (message: string) => void): void {
  if (schema.minimum !== undefined && value < schema.minimum)
    fail(`must be ≥ ${schema.minimum}, got ${value}`);
  if (schema.maximum !== undefined && value > schema.maximum)
    fail(`must be ≤ ${schema.maximum}, got ${value}`);
}

function checkLength(
  length: number,
  min: number | undefined,
  max: number | undefined,
  unit: string,
  fail: (message: string) => void,
): void {
  if (min !== undefined && length < min) fail(`must have at least ${min} ${unit}, got ${length}`);
  if (max !== undefined && length > max) fail(`must have at most ${max} ${unit}, got ${length}`);
}

function hasType(value: unknown, type: JsonSchemaType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
    case 'null':
      return value === null;
    default: {
      const unknown: never = type;
      return unknown;
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isInteger(value)) return 'integer';
  return typeof value;
}

function describeSchema(schema: JsonSchema): string {
  if (schema.type !== undefined)
    return typeof schema.type === 'string' ? schema.type : schema.type.join(' | ');
  if (schema.enum) return JSON.stringify(schema.enum);
  return 'schema';
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function join(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}
