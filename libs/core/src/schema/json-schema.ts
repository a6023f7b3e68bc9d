/**
 * The JSON Schema keywords Helios itself generates and reads, typed; any other keyword passes through to
 * providers and is validated too (see schema-validator.ts).
 */
export type JsonSchemaType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

export interface JsonSchema {
  readonly type?: JsonSchemaType | readonly JsonSchemaType[];
  readonly description?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | JsonSchema;
  readonly items?: JsonSchema;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly [keyword: string]: unknown;
}

/** One field that does not match its schema: where, and what was expected versus found. */
/** A value checked against a schema: the typed value, or every field that failed. */
export type SchemaCheck<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly errors: readonly FieldError[] };

export interface FieldError {
  /** `a.b[0]` style; empty for the value itself. */
  readonly path: string;
  readonly message: string;
}

/** `field 'a.b' expected integer, got string` — the line a correction message lists. */
export function describeFieldError(error: FieldError): string {
  return `field '${error.path === '' ? '$' : error.path}' ${error.message}`;
}

/** The JSON type of a value as messages name it: `integer` for whole numbers, `nothing` for undefined. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isInteger(value)) return 'integer';
  return typeof value;
}
